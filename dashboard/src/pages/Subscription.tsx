import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import type { Subscription } from '../../../contract';
import { api, ok } from '../api';
import { DataTable } from '../components/DataTable';
import { LiveIndicator } from '../components/LiveIndicator';
import { LoadedList, LoadMore } from '../components/LoadedList';
import {
  ConfirmButton,
  CopyField,
  ErrorNotice,
  Loading,
  Notice,
  PageHeader,
  Section,
  StatusBadge,
  UserText,
} from '../components/ui';
import { useI18n, type MessageKey } from '../i18n';
import { useAction } from '../lib/actions';
import { shortRef, useFormat } from '../lib/format';
import { useLive, useTitle } from '../lib/hooks';
import { networkName, ORDER_STATUS_KEYS, SUBSCRIPTION_STATUS_KEYS } from '../lib/labels';
import { subscriptionOrdersQuery, subscriptionQuery, useRefresh } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';
import { planText } from '../lib/subscriptions';

/**
 * One subscription: its plan, status, current period, next order and the customer's page, its
 * orders (each links to the order page), and the merchant's moves (cancel now or at the period's
 * end, pause, resume), each confirmed first. Its events refresh it.
 */
export function SubscriptionPage() {
  const { id = '' } = useParams();
  const { t } = useI18n();
  const title = t('subscriptionTitle', { id });
  useTitle(title);
  const subscription = useQuery(subscriptionQuery(id));
  const live = useLive({});
  const back = (
    <p className="breadcrumb">
      <Link to="/subscriptions">{t('backToSubscriptions')}</Link>
    </p>
  );
  if (subscription.isPending)
    return (
      <>
        <PageHeader title={title} />
        <Loading />
      </>
    );
  if (!subscription.data)
    return (
      <>
        {back}
        <PageHeader title={title} />
        <ErrorNotice error={subscription.error} onRetry={() => void subscription.refetch()} />
      </>
    );
  const s = subscription.data;
  return (
    <>
      {back}
      <PageHeader title={title}>
        <StatusBadge status={s.status} label={t(SUBSCRIPTION_STATUS_KEYS[s.status])} />
      </PageHeader>
      <LiveIndicator live={live} />
      {subscription.isError && <ErrorNotice error={subscription.error} />}
      <div className="grid two">
        <SubscriptionFacts subscription={s} />
        <Section title={t('manageSubscription')}>
          <CopyField label={t('manageUrl')} value={s.manageUrl} />
          <p className="hint">{t('manageUrlHint')}</p>
          <SubscriptionActions subscription={s} />
        </Section>
      </div>
      <SubscriptionOrders id={s.id} />
    </>
  );
}

function SubscriptionFacts({ subscription: s }: { subscription: Subscription }) {
  const { t } = useI18n();
  const f = useFormat();
  const facts: [MessageKey, ReactNode][] = [
    ['customer', <CustomerText key="c" subscription={s} />],
    ['plan', planText(s, t, f)],
    [
      'network',
      s.paymentOptions === 'all'
        ? `${networkName(s.network)} · ${s.token} (${t('paymentOptionsAll')})`
        : `${networkName(s.network)} · ${s.token}`,
    ],
    [
      'currentPeriod',
      s.currentPeriodStart && s.currentPeriodEnd
        ? t('periodRange', { start: f.dateTime(s.currentPeriodStart), end: f.dateTime(s.currentPeriodEnd) })
        : t('notStarted'),
    ],
    ['nextOrder', s.nextOrderAt ? f.dateTime(s.nextOrderAt) : '—'],
    ['dueDaysShown', t('daysN', { n: s.dueDays })],
    ['created', f.dateTime(s.createdAt)],
  ];
  if (s.trialEnd) facts.splice(4, 0, ['trialEnds', f.dateTime(s.trialEnd)]);
  return (
    <Section title={t('subscriptionDetails')}>
      <p className="order-description">
        <UserText text={s.description} empty={t('noDescription')} />
      </p>
      <dl className="facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{t(label)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {s.canceledAt && <Notice>{t('canceledOn', { when: f.dateTime(s.canceledAt) })}</Notice>}
      {!s.canceledAt && s.cancelAtPeriodEnd && (
        <Notice kind="warn">
          {t('endsAtPeriodEnd', { when: s.currentPeriodEnd ? f.dateTime(s.currentPeriodEnd) : '—' })}
        </Notice>
      )}
      {s.status === 'PAST_DUE' && s.pastDueSince && (
        <Notice kind="warn">{t('pastDueSince', { when: f.dateTime(s.pastDueSince) })}</Notice>
      )}
    </Section>
  );
}

function CustomerText({ subscription: s }: { subscription: Subscription }) {
  return (
    <>
      <UserText text={s.customer.name ?? s.customer.email} />
      {s.customer.name && s.customer.email && (
        <span className="muted">
          {' '}
          · <UserText text={s.customer.email} />
        </span>
      )}
    </>
  );
}

type Move = 'cancelNow' | 'cancelAtPeriodEnd' | 'pause' | 'resume';

/** The merchant's moves, as the status allows them; each asks first and shows what went wrong. */
function SubscriptionActions({ subscription: s }: { subscription: Subscription }) {
  const { t } = useI18n();
  const refresh = useRefresh();
  const params = { params: { id: s.id } };
  const send: Record<Move, () => Promise<unknown>> = {
    cancelNow: async () => ok(await api.subscriptions.cancel({ ...params, body: {} }), 200),
    cancelAtPeriodEnd: async () =>
      ok(await api.subscriptions.cancel({ ...params, body: { atPeriodEnd: true } }), 200),
    pause: async () => ok(await api.subscriptions.pause(params), 200),
    resume: async () => ok(await api.subscriptions.resume(params), 200),
  };
  const action = useAction(async (move: Move) => {
    await send[move]();
    refresh(changedByWrite.subscription(s.id));
  });
  if (s.status === 'CANCELED') return null;
  const moves: { move: Move; question: MessageKey; yes: MessageKey; danger?: boolean }[] = [
    ...(s.status === 'PAUSED'
      ? [{ move: 'resume' as const, question: 'confirmResume' as const, yes: 'yesResume' as const }]
      : [{ move: 'pause' as const, question: 'confirmPause' as const, yes: 'yesPause' as const }]),
    ...(s.cancelAtPeriodEnd
      ? []
      : [
          {
            move: 'cancelAtPeriodEnd' as const,
            question: 'confirmCancelAtEnd' as const,
            yes: 'yesCancel' as const,
          },
        ]),
    { move: 'cancelNow', question: 'confirmCancelNow', yes: 'yesCancel', danger: true },
  ];
  return (
    <>
      <div className="actions">
        {moves.map((m) => (
          <ConfirmButton
            key={m.move}
            label={t(m.move)}
            question={t(m.question)}
            confirmLabel={t(m.yes)}
            danger={m.danger}
            disabled={action.busy}
            onConfirm={() => action.run(m.move)}
          />
        ))}
      </div>
      {action.error != null && <ErrorNotice error={action.error} />}
    </>
  );
}

/** The subscription's orders, newest first, each linking to its order page. */
function SubscriptionOrders({ id }: { id: string }) {
  const { t } = useI18n();
  const f = useFormat();
  const list = useInfiniteQuery(subscriptionOrdersQuery(id));
  const items = list.data?.pages.flatMap((page) => page.items);
  return (
    <Section title={t('subscriptionOrders')}>
      <LoadedList list={{ ...list, data: items }} empty={t('noSubscriptionOrders')}>
        {(orders) => (
          <DataTable
            className="orders responsive"
            caption={t('subscriptionOrdersCaption')}
            columns={['order', 'period', 'status', { key: 'amount', numeric: true }, 'created']}
          >
            {orders.map((o) => (
              <tr key={o.reference}>
                <td data-label={t('order')}>
                  <Link to={`/orders/${encodeURIComponent(o.reference)}`} className="order-link">
                    <code>{shortRef(o.reference)}</code>
                  </Link>
                </td>
                <td data-label={t('period')}>
                  {o.period ? t('periodN', { n: o.period.index + 1 }) : '—'}
                  {o.period && (
                    <div className="muted small-text">
                      {t('periodRange', {
                        start: f.dateTime(o.period.start),
                        end: f.dateTime(o.period.end),
                      })}
                    </div>
                  )}
                </td>
                <td data-label={t('status')}>
                  <StatusBadge status={o.status} label={t(ORDER_STATUS_KEYS[o.status]!)} />
                </td>
                <td data-label={t('amount')} className="num">
                  {f.token(o.amount, o.token)}
                </td>
                <td data-label={t('created')} className="nowrap">
                  {f.dateTime(o.createdAt)}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </LoadedList>
      <LoadMore list={list} />
    </Section>
  );
}
