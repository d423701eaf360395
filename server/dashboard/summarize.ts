import { QueryTypes } from 'sequelize';
import {
  ORDER_STATUSES,
  type DashboardSummary,
  type DateRangeQuery,
  type Network,
  type Token,
} from '../../contract';
import type { Deps } from '../deps';
import { formatUnits, parseUnits } from '../lib/decimal';
import { dateRange, RANGE_END_SQL, RANGE_START_SQL } from './date-range';
import { formatFiatCents, STATS_DECIMALS } from './fiat';

type OrderRow = {
  day: string;
  network: Network;
  token: Token;
  created: number;
  pending: number;
  confirming: number;
  paid: number;
  underpaid: number;
  expired: number;
};
type PaymentRow = {
  day: string;
  network: Network;
  token: Token;
  quote_currency: string;
  units: string;
  fiat: string;
};

const tokenKey = (r: { network: string; token: string }) => `${r.network}|${r.token}`;

function tokenAmounts(rows: PaymentRow[]) {
  const sums = new Map<string, { network: Network; token: Token; units: bigint }>();
  for (const r of rows) {
    const sum = sums.get(tokenKey(r)) ?? { network: r.network, token: r.token, units: 0n };
    sum.units += BigInt(r.units);
    sums.set(tokenKey(r), sum);
  }
  return [...sums.values()]
    .sort((a, b) => tokenKey(a).localeCompare(tokenKey(b)))
    .map((s) => ({ network: s.network, token: s.token, amount: formatUnits(s.units, STATS_DECIMALS, 0) }));
}

function fiatAmounts(rows: PaymentRow[]) {
  const sums = new Map<string, bigint>();
  for (const r of rows)
    if (r.quote_currency)
      sums.set(r.quote_currency, (sums.get(r.quote_currency) ?? 0n) + parseUnits(r.fiat, 6));
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, micros]) => ({ currency, amount: formatFiatCents(micros) }));
}

/**
 * The overview's figures for the days from..to in a time zone, from the hourly figures the
 * refresh-dashboard-stats job keeps (migration 0016): at most 24 rows per day and network/token,
 * whatever the number of orders. Days are cut at the hour, so in a zone whose offset is not whole
 * hours an order within the half hour after midnight counts on the day before.
 */
export async function summarize(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: DateRangeQuery,
): Promise<DashboardSummary> {
  const range = dateRange(query);
  const bind = { merchantId, from: range.from, to: range.to, timeZone: range.timeZone };
  const inRange = `merchant_id = $merchantId AND hour >= ${RANGE_START_SQL} AND hour < ${RANGE_END_SQL}`;
  const day = `to_char(hour AT TIME ZONE $timeZone, 'YYYY-MM-DD')`;
  // One statement, one round trip: both groupings come back as JSON arrays in a single row.
  const [row] = await deps.db.sequelize.query<{ orders: OrderRow[]; payments: PaymentRow[] }>(
    `SELECT (SELECT coalesce(json_agg(o), '[]') FROM (
               SELECT ${day} AS day, network, token, sum(created)::int AS created, sum(pending)::int AS pending,
                      sum(confirming)::int AS confirming, sum(paid)::int AS paid, sum(underpaid)::int AS underpaid,
                      sum(expired)::int AS expired
                 FROM order_stats_hourly WHERE ${inRange} GROUP BY 1, 2, 3) o) AS orders,
            (SELECT coalesce(json_agg(p), '[]') FROM (
               SELECT ${day} AS day, network, token, quote_currency, sum(received_units)::text AS units,
                      round(sum(received_fiat), 6)::text AS fiat
                 FROM payment_stats_hourly WHERE ${inRange} GROUP BY 1, 2, 3, 4) p) AS payments`,
    { bind, type: QueryTypes.SELECT },
  );
  const orders = row?.orders ?? [];
  const payments = row?.payments ?? [];

  const byStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as DashboardSummary['byStatus'];
  for (const r of orders) {
    byStatus.PENDING += r.pending;
    byStatus.CONFIRMING += r.confirming;
    byStatus.PAID += r.paid;
    byStatus.UNDERPAID += r.underpaid;
    byStatus.EXPIRED += r.expired;
  }
  const sum = (rows: OrderRow[], key: 'created' | 'paid') => rows.reduce((n, r) => n + r[key], 0);
  return {
    from: range.from,
    to: range.to,
    timeZone: range.timeZone,
    received: tokenAmounts(payments),
    receivedFiat: fiatAmounts(payments),
    ordersCreated: sum(orders, 'created'),
    ordersPaid: sum(orders, 'paid'),
    byStatus,
    days: range.days.map((date) => {
      const dayOrders = orders.filter((r) => r.day === date);
      const dayPayments = payments.filter((r) => r.day === date);
      return {
        date,
        ordersCreated: sum(dayOrders, 'created'),
        ordersPaid: sum(dayOrders, 'paid'),
        received: tokenAmounts(dayPayments),
        receivedFiat: fiatAmounts(dayPayments),
      };
    }),
  };
}
