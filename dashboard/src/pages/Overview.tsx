import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '../components/DataTable';
import { Link } from 'react-router';
import type { DashboardSummary } from '../../../contract';
import { ORDER_STATUSES } from '../../../contract';
import { formatUnits, MAX_DECIMALS, parseUnits } from '../../../contract/decimal';
import { BarChart } from '../components/BarChart';
import { SalesByMember } from '../components/SalesByMember';
import { Empty, ErrorNotice, Loading, PageHeader, PrimaryLink, Section, StatusBadge } from '../components/ui';
import { useI18n } from '../i18n';
import { addDays, browserTimeZone, todayIn, useFormat } from '../lib/format';
import { networkName, ORDER_STATUS_KEYS } from '../lib/labels';
import { summaryQuery } from '../lib/queries';

const DAYS = 30;

type Totals = {
  tokens: { network: string; token: string; amount: string }[];
  fiat: { currency: string; amount: string }[];
};

/**
 * The summary's amounts (tokens of any decimals, fiat with 2 places) have at most MAX_DECIMALS
 * places: summed exactly in units of 10^-MAX_DECIMALS.
 */
const units = (amount: string) => parseUnits(amount, MAX_DECIMALS);
const amountOf = (sum: bigint) => formatUnits(sum, MAX_DECIMALS, 0);

/** Sums the amounts of rows that share a key (e.g. network and token). */
function sumBy<T>(rows: T[], key: (row: T) => string, amount: (row: T) => string): Map<string, string> {
  const sums = new Map<string, bigint>();
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0n) + units(amount(row)));
  return new Map([...sums].map(([k, sum]) => [k, amountOf(sum)]));
}

/** What the last `n` days of the series received, per network and token and per quote currency. */
function totalsOf(days: DashboardSummary['days']): Totals {
  const received = days.flatMap((d) => d.received);
  const fiat = days.flatMap((d) => d.receivedFiat);
  const tokens = [
    ...sumBy(
      received,
      (r) => `${r.network}|${r.token}`,
      (r) => r.amount,
    ),
  ]
    .map(([key, amount]) => {
      const [network, token] = key.split('|') as [string, string];
      return { network, token, amount };
    })
    .filter((r) => units(r.amount) > 0n)
    .sort((a, b) => a.network.localeCompare(b.network) || a.token.localeCompare(b.token));
  const currencies = [
    ...sumBy(
      fiat,
      (r) => r.currency,
      (r) => r.amount,
    ),
  ]
    .map(([currency, amount]) => ({ currency, amount }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
  return { tokens, fiat: currencies };
}

function TotalsCard({ title, totals }: { title: string; totals: Totals }) {
  const { t } = useI18n();
  const f = useFormat();
  const nothing = totals.tokens.length === 0;
  return (
    <section className="card stat" aria-label={title}>
      <h2 className="stat-title">{title}</h2>
      {nothing ? (
        <p className="muted">{t('nothingReceived')}</p>
      ) : (
        <>
          <ul className="amounts">
            {totals.tokens.map((r) => (
              <li key={`${r.network}-${r.token}`}>
                <span className="amount">{f.token(r.amount, r.token)}</span>{' '}
                <span className="muted">{t('onNetwork', { network: networkName(r.network) })}</span>
              </li>
            ))}
          </ul>
          {totals.fiat.length > 0 && (
            <ul className="amounts fiat">
              {totals.fiat.map((r) => (
                <li key={r.currency}>
                  <span className="amount">{f.fiat(r.amount, r.currency)}</span>{' '}
                  <span className="muted">{t('atQuoteRates')}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

export function OverviewPage() {
  const { t } = useI18n();
  const f = useFormat();
  const timeZone = browserTimeZone();
  const to = todayIn(timeZone);
  const from = addDays(to, -(DAYS - 1));
  const summary = useQuery(summaryQuery({ from, to, timeZone }));

  return (
    <>
      <PageHeader title={t('navOverview')}>
        <PrimaryLink to="/links/new">{t('navNewLink')}</PrimaryLink>
      </PageHeader>
      <p className="muted page-intro">
        {t('overviewIntro', { from: f.dayLong(from), to: f.dayLong(to), timeZone })}
      </p>
      {summary.isPending && <Loading />}
      {summary.isError && (
        <ErrorNotice
          error={summary.error}
          onRetry={() => void summary.refetch()}
          title={t('overviewFailed')}
        />
      )}
      {summary.data && <OverviewBody summary={summary.data} from={from} to={to} />}
      {summary.data && <MemberSalesSection to={to} timeZone={timeZone} />}
    </>
  );
}

/** The periods the sales by member can cover, ending today. */
const MEMBER_PERIODS = [1, 7, DAYS] as const;

/** Who sold what (the owner's view of its cashiers), today or over the last days. */
function MemberSalesSection({ to, timeZone }: { to: string; timeZone: string }) {
  const { t } = useI18n();
  const [days, setDays] = useState<(typeof MEMBER_PERIODS)[number]>(1);
  const label = (n: number) => (n === 1 ? t('periodToday') : t('periodLastDays', { days: n }));
  return (
    <Section
      title={t('salesByMember')}
      intro={t('salesByMemberIntro')}
      actions={
        <>
          <label className="sr-only" htmlFor="member-sales-period">
            {t('period')}
          </label>
          <select
            id="member-sales-period"
            value={days}
            onChange={(e) => setDays(Number(e.target.value) as typeof days)}
          >
            {MEMBER_PERIODS.map((n) => (
              <option key={n} value={n}>
                {label(n)}
              </option>
            ))}
          </select>
        </>
      }
    >
      <SalesByMember
        range={{ from: addDays(to, -(days - 1)), to, timeZone }}
        caption={`${t('salesByMember')}: ${label(days)}`}
      />
    </Section>
  );
}

function OverviewBody({ summary, from, to }: { summary: DashboardSummary; from: string; to: string }) {
  const { t } = useI18n();
  const f = useFormat();
  const days = summary.days;
  const today = totalsOf(days.slice(-1));
  const week = totalsOf(days.slice(-7));
  const month: Totals = {
    tokens: summary.received
      .filter((r) => units(r.amount) > 0n)
      .sort((a, b) => a.network.localeCompare(b.network) || a.token.localeCompare(b.token)),
    fiat: summary.receivedFiat,
  };
  const conversion = summary.ordersCreated ? summary.ordersPaid / summary.ordersCreated : 0;
  const chartDays = days.map((d) => ({
    label: f.day(d.date),
    longLabel: f.dayLong(d.date),
    values: [d.ordersCreated, d.ordersPaid],
  }));
  const amountDays = days.map((d) => ({
    label: f.day(d.date),
    longLabel: f.dayLong(d.date),
    // A bar's height needs no precision: the exact sum as a float.
    values: [Number(amountOf(d.received.reduce((sum, r) => sum + units(r.amount), 0n)))],
  }));
  const listLink = (status?: string) => {
    const params = new URLSearchParams({ from, to });
    if (status) params.set('status', status);
    return `/orders?${params}`;
  };

  return (
    <>
      <div className="grid three">
        <TotalsCard title={t('receivedToday')} totals={today} />
        <TotalsCard title={t('received7')} totals={week} />
        <TotalsCard title={t('received30')} totals={month} />
      </div>
      <div className="grid two">
        <Section title={t('ordersLast30')}>
          {summary.ordersCreated === 0 ? (
            <Empty>
              {t('noOrdersInRange')} <Link to="/links/new">{t('createFirstLink')}</Link>
            </Empty>
          ) : (
            <>
              <p className="big-figure">
                <span className="figure">{f.percent(conversion)}</span>{' '}
                <span className="muted">
                  {t('conversion', {
                    paid: f.int(summary.ordersPaid),
                    created: f.int(summary.ordersCreated),
                  })}
                </span>
              </p>
              <ul className="status-counts">
                {ORDER_STATUSES.map((status) => (
                  <li key={status}>
                    <Link to={listLink(status)}>
                      <StatusBadge status={status} label={t(ORDER_STATUS_KEYS[status]!)} />
                      <span className="count">{f.int(summary.byStatus[status])}</span>
                    </Link>
                  </li>
                ))}
              </ul>
              <p>
                <Link to={listLink()}>{t('seeOrders')}</Link>
              </p>
            </>
          )}
        </Section>
        <Section title={t('dailyOrders')}>
          <BarChart
            days={chartDays}
            series={[
              { name: t('seriesCreated'), className: 'bar-created' },
              { name: t('seriesPaid'), className: 'bar-paid' },
            ]}
            summary={t('chartOrdersSummary', {
              created: f.int(summary.ordersCreated),
              paid: f.int(summary.ordersPaid),
              days: days.length,
            })}
            formatValue={(v) => f.int(Math.round(v))}
            integer
          />
        </Section>
      </div>
      <Section title={t('dailyReceived')}>
        <p className="muted">{t('dailyReceivedHint')}</p>
        <BarChart
          days={amountDays}
          series={[{ name: t('seriesReceived'), className: 'bar-amount' }]}
          summary={t('chartAmountSummary', { days: days.length })}
          formatValue={(v) => f.compact(v)}
        />
        <details className="as-table">
          <summary>{t('showAsTable')}</summary>
          <DataTable
            caption={t('dailyTableCaption')}
            columns={['day', 'seriesCreated', 'seriesPaid', 'received']}
          >
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{f.day(d.date)}</th>
                <td>{f.int(d.ordersCreated)}</td>
                <td>{f.int(d.ordersPaid)}</td>
                <td>
                  {d.received.length === 0
                    ? '—'
                    : d.received
                        .map((r) => `${f.token(r.amount, r.token)} (${networkName(r.network)})`)
                        .join(', ')}
                  {d.receivedFiat.length > 0 &&
                    ` · ${d.receivedFiat.map((r) => f.fiat(r.amount, r.currency)).join(', ')}`}
                </td>
              </tr>
            ))}
          </DataTable>
        </details>
      </Section>
    </>
  );
}
