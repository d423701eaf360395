import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import type { Subscription } from '../../../contract';
import { api, ok } from '../api';
import { DataTable, DateCell, LinkCell, numeric } from '../components/DataTable';
import { DetailFrame, DetailsSection } from '../components/DetailFrame';
import { MoveButtons, type Move } from '../components/MoveButtons';
import { PagedList } from '../components/LoadedList';
import { CopyField, Notice, Section, StatusBadge, UserText } from '../components/ui';
import { useI18n, type MessageKey } from '../i18n';
import { shortRef, useFormat } from '../lib/format';
import { useLive } from '../lib/hooks';
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
  const subscription = useQuery(subscriptionQuery(id));
  const live = useLive({});
  return (
    <DetailFrame
      back={{ to: '/subscriptions', label: t('backToSubscriptions') }}
      title={t('subscriptionTitle', { id })}
      query={subscription}
      live={live}
      headerExtras={(s) => <StatusBadge status={s.status} label={t(SUBSCRIPTION_STATUS_KEYS[s.status])} />}
    >
      {(s) => (
        <>
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
      )}
    </DetailFrame>
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
    <DetailsSection title={t('subscriptionDetails')} description={s.description}>
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
    </DetailsSection>
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

type SubscriptionMove = 'cancelNow' | 'cancelAtPeriodEnd' | 'pause' | 'resume';

/** The merchant's moves, as the status allows them. */
function SubscriptionActions({ subscription: s }: { subscription: Subscription }) {
  const refresh = useRefresh();
  const params = { params: { id: s.id } };
  const send: Record<SubscriptionMove, () => Promise<unknown>> = {
    cancelNow: async () => ok(await api.subscriptions.cancel({ ...params, body: {} }), 200),
    cancelAtPeriodEnd: async () =>
      ok(await api.subscriptions.cancel({ ...params, body: { atPeriodEnd: true } }), 200),
    pause: async () => ok(await api.subscriptions.pause(params), 200),
    resume: async () => ok(await api.subscriptions.resume(params), 200),
  };
  if (s.status === 'CANCELED') return null;
  const moves: (Move<SubscriptionMove> | false)[] = [
    s.status === 'PAUSED'
      ? { move: 'resume', label: 'resume', question: 'confirmResume', yes: 'yesResume' }
      : { move: 'pause', label: 'pause', question: 'confirmPause', yes: 'yesPause' },
    !s.cancelAtPeriodEnd && {
      move: 'cancelAtPeriodEnd',
      label: 'cancelAtPeriodEnd',
      question: 'confirmCancelAtEnd',
      yes: 'yesCancel',
    },
    { move: 'cancelNow', label: 'cancelNow', question: 'confirmCancelNow', yes: 'yesCancel', danger: true },
  ];
  const run = async (move: SubscriptionMove) => {
    await send[move]();
    refresh(changedByWrite.subscription(s.id));
  };
  return <MoveButtons moves={moves} run={run} />;
}

/** The subscription's orders, newest first, each linking to its order page. */
function SubscriptionOrders({ id }: { id: string }) {
  const { t } = useI18n();
  const f = useFormat();
  const list = useInfiniteQuery(subscriptionOrdersQuery(id));
  return (
    <Section title={t('subscriptionOrders')}>
      <PagedList list={list} empty={t('noSubscriptionOrders')}>
        {(orders) => (
          <DataTable
            className="orders responsive"
            caption={t('subscriptionOrdersCaption')}
            columns={['order', 'period', 'status', numeric('amount'), 'created']}
          >
            {orders.map((o) => (
              <tr key={o.reference}>
                <LinkCell
                  column="order"
                  to={`/orders/${encodeURIComponent(o.reference)}`}
                  id={shortRef(o.reference)}
                />
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
                <DateCell column="created" at={o.createdAt} />
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
    </Section>
  );
}
