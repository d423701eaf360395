import { useInfiniteQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../contract';
import { DataTable, DateCell, LinkCell } from '../components/DataTable';
import { Options } from '../components/form';
import { NothingListed, PagedList } from '../components/LoadedList';
import { LiveIndicator } from '../components/LiveIndicator';
import { Field, PageHeader, PrimaryLink, StatusBadge, UserText } from '../components/ui';
import { useI18n } from '../i18n';
import { useFormat } from '../lib/format';
import { useLive } from '../lib/hooks';
import { networkName, SUBSCRIPTION_STATUS_KEYS } from '../lib/labels';
import { subscriptionsQuery } from '../lib/queries';
import type { SubscriptionsQuery } from '../lib/query-keys';
import { planText, subscriptionPath } from '../lib/subscriptions';

/**
 * The merchant's subscriptions, newest first, filtered by status and customer e-mail (kept in the
 * address, so a filtered list can be shared), a page at a time ("Load more"). Their events refresh it.
 */
export function SubscriptionsPage() {
  const { t } = useI18n();
  const f = useFormat();
  const [params, setParams] = useSearchParams();
  const status = params.get('status')?.trim() ?? '';
  const email = params.get('customer_email')?.trim() ?? '';
  const query: SubscriptionsQuery = {
    ...((SUBSCRIPTION_STATUSES as readonly string[]).includes(status)
      ? { status: status as SubscriptionStatus }
      : {}),
    ...(email ? { customer_email: email } : {}),
  };
  const filtered = Object.keys(query).length > 0;
  const list = useInfiniteQuery(subscriptionsQuery(query));
  const live = useLive({});

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const key of ['status', 'customer_email']) {
      const value = String(data.get(key) ?? '').trim();
      if (value) next.set(key, value);
    }
    setParams(next);
  };

  return (
    <>
      <PageHeader title={t('navSubscriptions')}>
        <PrimaryLink to="/subscriptions/new">{t('navNewSubscription')}</PrimaryLink>
      </PageHeader>
      <p className="muted page-intro">{t('subscriptionsIntro')}</p>
      <form
        className="card filters"
        role="search"
        aria-label={t('filterSubscriptions')}
        onSubmit={apply}
        key={JSON.stringify(query)}
      >
        <Field id="s-email" label={t('customerEmail')}>
          <input id="s-email" name="customer_email" type="search" maxLength={254} defaultValue={email} />
        </Field>
        <Field id="s-status" label={t('status')}>
          <select id="s-status" name="status" defaultValue={query.status ?? ''}>
            <option value="">{t('any')}</option>
            <Options values={SUBSCRIPTION_STATUSES} label={(s) => t(SUBSCRIPTION_STATUS_KEYS[s])} />
          </select>
        </Field>
        <div className="filter-actions">
          <button type="submit" className="primary">
            {t('showSubscriptions')}
          </button>
          {filtered && (
            <button type="button" onClick={() => setParams(new URLSearchParams())}>
              {t('clearFilters')}
            </button>
          )}
        </div>
      </form>
      <div className="list-head">
        <LiveIndicator live={live} />
      </div>
      <PagedList
        list={list}
        loadingLabel={t('loadingSubscriptions')}
        empty={
          <NothingListed
            filtered={filtered}
            matches={t('noSubscriptionsMatch')}
            yet={t('noSubscriptionsYet')}
            first={{ to: '/subscriptions/new', label: t('createFirstSubscription') }}
          />
        }
      >
        {(items) => (
          <DataTable
            wrapClassName="card flush"
            className="subscriptions responsive"
            caption={t('subscriptionsCaption')}
            columns={['subscription', 'customer', 'status', 'plan', 'nextOrder', 'created']}
          >
            {items.map((s) => (
              <tr key={s.id}>
                <LinkCell
                  column="subscription"
                  to={subscriptionPath(s.id)}
                  id={s.id}
                  description={s.description}
                />
                <td data-label={t('customer')}>
                  <UserText text={s.customer.name ?? s.customer.email} />
                  {s.customer.name && s.customer.email && (
                    <div className="muted small-text">
                      <UserText text={s.customer.email} />
                    </div>
                  )}
                </td>
                <td data-label={t('status')}>
                  <StatusBadge status={s.status} label={t(SUBSCRIPTION_STATUS_KEYS[s.status])} />
                </td>
                <td data-label={t('plan')}>
                  {planText(s, t, f)}
                  <div className="muted small-text">
                    {networkName(s.network)} · {s.token}
                  </div>
                </td>
                <DateCell column="nextOrder" at={s.nextOrderAt} />
                <DateCell column="created" at={s.createdAt} />
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
    </>
  );
}
