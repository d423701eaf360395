import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ORDER_STATUSES, TOKENS, eventOrderOf, type Order, type WebhookEventBody } from '../../../contract';
import { parseUnits } from '../../../contract/decimal';
import { DataTable, DateCell, LinkCell, numeric } from '../components/DataTable';
import { NetworkOptions, TextField, Options } from '../components/form';
import { LoadedList, NothingListed } from '../components/LoadedList';
import { LiveIndicator } from '../components/LiveIndicator';
import { Field, PageHeader, PrimaryLink, ProblemNotice, StatusBadge } from '../components/ui';
import { useI18n } from '../i18n';
import { addDays, daysBetween, localDayStart, shortRef, useFormat } from '../lib/format';
import { useLive } from '../lib/hooks';
import { networkName, ORDER_STATUS_KEYS } from '../lib/labels';
import { ordersQuery } from '../lib/queries';

const PER_PAGE = 20;
const FILTERS = ['status', 'network', 'token', 'kind', 'from', 'to', 'q'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

function readFilters(params: URLSearchParams): Filters {
  const filters: Filters = {};
  for (const key of FILTERS) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

export function OrdersPage() {
  const { t } = useI18n();
  const f = useFormat();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const filterKey = JSON.stringify(filters);
  // Cursor pages: the cursors that led to each page so far ('' is the first page).
  const [paging, setPaging] = useState({ key: filterKey, cursors: [''] });
  const cursors = paging.key === filterKey ? paging.cursors : [''];
  const cursor = cursors[cursors.length - 1]!;
  const setCursors = (next: (current: string[]) => string[]) =>
    setPaging({ key: filterKey, cursors: next(cursors) });

  const query = {
    per_page: PER_PAGE,
    cursor,
    ...(filters.status ? { status: filters.status as Order['status'] } : {}),
    ...(filters.network ? { network: filters.network as Order['network'] } : {}),
    ...(filters.token ? { token: filters.token as Order['token'] } : {}),
    ...(filters.kind ? { kind: filters.kind as Order['kind'] } : {}),
    ...(filters.from ? { created_gte: localDayStart(filters.from) } : {}),
    ...(filters.to ? { created_lt: localDayStart(addDays(filters.to, 1)) } : {}),
    ...(filters.q ? { q: filters.q } : {}),
  };
  const page = useQuery(ordersQuery(query));

  // Live: rows take the order each event carries (the query layer does that); the rows of this
  // page that changed are marked for a moment and said to screen readers.
  const [changed, setChanged] = useState<Map<string, number>>(new Map());
  const [announcement, setAnnouncement] = useState('');
  const shown = useRef(page.data);
  shown.current = page.data;
  const live = useLive({}, (events: WebhookEventBody[]) => {
    const updates = new Map<string, Pick<Order, 'reference' | 'status'>>();
    for (const event of events) {
      const order = eventOrderOf(event);
      if (!order) continue;
      if (shown.current?.items.some((row) => row.reference === order.reference))
        updates.set(order.reference, order);
    }
    if (updates.size === 0) return;
    const now = Date.now();
    setChanged((previous) => {
      const next = new Map(previous);
      for (const reference of updates.keys()) next.set(reference, now);
      return next;
    });
    const said = [...updates.values()].map((o) =>
      t('orderNowStatus', { reference: shortRef(o.reference), status: t(ORDER_STATUS_KEYS[o.status]!) }),
    );
    setAnnouncement(said.join(' '));
  });
  useEffect(() => {
    if (changed.size === 0) return;
    const timer = setTimeout(() => setChanged(new Map()), 4000);
    return () => clearTimeout(timer);
  }, [changed]);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const key of FILTERS) {
      const value = String(data.get(key) ?? '').trim();
      if (value) next.set(key, value);
    }
    setParams(next);
  };
  const rangeError =
    filters.from && filters.to && daysBetween(filters.from, filters.to) < 0 ? t('rangeBackwards') : null;

  return (
    <>
      <PageHeader title={t('navOrders')}>
        <PrimaryLink to="/links/new">{t('navNewLink')}</PrimaryLink>
      </PageHeader>
      <form
        className="card filters"
        role="search"
        aria-label={t('filterOrders')}
        onSubmit={apply}
        key={filterKey}
      >
        <Field id="f-q" label={t('search')} hint={t('searchHint')} className="search">
          <input
            id="f-q"
            name="q"
            type="search"
            maxLength={200}
            defaultValue={filters.q ?? ''}
            aria-describedby="f-q-hint"
          />
        </Field>
        <Field id="f-status" label={t('status')}>
          <select id="f-status" name="status" defaultValue={filters.status ?? ''}>
            <option value="">{t('any')}</option>
            <Options values={ORDER_STATUSES} label={(s) => t(ORDER_STATUS_KEYS[s]!)} />
          </select>
        </Field>
        <Field id="f-network" label={t('network')}>
          <select id="f-network" name="network" defaultValue={filters.network ?? ''}>
            <option value="">{t('any')}</option>
            <NetworkOptions all />
          </select>
        </Field>
        <Field id="f-token" label={t('token')}>
          <select id="f-token" name="token" defaultValue={filters.token ?? ''}>
            <option value="">{t('any')}</option>
            <Options values={TOKENS} />
          </select>
        </Field>
        <Field id="f-kind" label={t('orderKind')}>
          <select id="f-kind" name="kind" defaultValue={filters.kind ?? ''}>
            <option value="">{t('any')}</option>
            <option value="order">{t('orderKindOrder')}</option>
            <option value="x402">{t('orderKindX402')}</option>
          </select>
        </Field>
        <TextField
          id="f-from"
          label={t('createdFrom')}
          name="from"
          type="date"
          defaultValue={filters.from ?? ''}
        />
        <TextField id="f-to" label={t('createdTo')} name="to" type="date" defaultValue={filters.to ?? ''} />
        <div className="filter-actions">
          <button type="submit" className="primary">
            {t('applyFilters')}
          </button>
          {Object.keys(filters).length > 0 && (
            <button type="button" onClick={() => setParams(new URLSearchParams())}>
              {t('clearFilters')}
            </button>
          )}
        </div>
      </form>
      {rangeError && <ProblemNotice>{rangeError}</ProblemNotice>}
      <div className="list-head">
        <LiveIndicator live={live} />
        <p className="sr-only" aria-live="polite">
          {announcement}
        </p>
      </div>
      <LoadedList
        list={{ ...page, data: page.data?.items }}
        loadingLabel={t('loadingOrders')}
        empty={
          <NothingListed
            filtered={Object.keys(filters).length > 0}
            matches={t('noOrdersMatch')}
            yet={t('noOrdersYet')}
            first={{ to: '/links/new', label: t('createFirstLink') }}
          />
        }
      >
        {(orders) => (
          <DataTable
            wrapClassName="card flush"
            className="orders responsive"
            caption={t('ordersCaption')}
            columns={['order', 'status', numeric('amount'), numeric('received'), 'network', 'created']}
          >
            {orders.map((order) => (
              <tr key={order.reference} className={changed.has(order.reference) ? 'changed' : undefined}>
                <LinkCell
                  column="order"
                  to={`/orders/${encodeURIComponent(order.reference)}`}
                  id={shortRef(order.reference)}
                  description={order.description}
                />
                <td data-label={t('status')}>
                  <StatusBadge status={order.status} label={t(ORDER_STATUS_KEYS[order.status]!)} />
                  {order.paidLate && <span className="muted small-text"> {t('paidLate')}</span>}
                </td>
                <td data-label={t('amount')} className="num">
                  {f.token(order.amount, order.token)}
                  {order.quoteCurrency && order.quoteAmount && (
                    <div className="muted small-text">{f.fiat(order.quoteAmount, order.quoteCurrency)}</div>
                  )}
                </td>
                <td data-label={t('received')} className="num">
                  {parseUnits(order.amountReceived, order.decimals) > 0n
                    ? f.token(order.amountReceived, order.token)
                    : '—'}
                  {parseUnits(order.amountRefunded, order.decimals) > 0n && (
                    <div className="muted small-text">
                      {t('refundedAmount', { amount: f.token(order.amountRefunded, order.token) })}
                    </div>
                  )}
                </td>
                <td data-label={t('network')}>{networkName(order.network)}</td>
                <DateCell column="created" at={order.createdAt} />
              </tr>
            ))}
          </DataTable>
        )}
      </LoadedList>
      {page.data && (cursors.length > 1 || page.data.nextCursor) && (
        <nav className="pager" aria-label={t('pages')}>
          <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(() => [''])}>
            {t('firstPage')}
          </button>
          <button
            type="button"
            disabled={cursors.length === 1}
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            {t('previousPage')}
          </button>
          <span className="muted">{t('pageN', { n: cursors.length })}</span>
          <button
            type="button"
            disabled={!page.data.nextCursor}
            onClick={() => setCursors((c) => [...c, page.data!.nextCursor!])}
          >
            {t('nextPage')}
          </button>
        </nav>
      )}
    </>
  );
}
