import { LRUCache } from 'lru-cache';
import {
  ORDER_STATUSES,
  type DashboardSummary,
  type DateRangeQuery,
  type Network,
  type Token,
} from '../../contract';
import type { Database } from '../db/database';
import type { Deps } from '../deps';
import { formatUnits, parseUnits } from '../../contract/decimal';
import { dateRange, type DateRange } from './date-range';
import { formatFiatCents, STATS_DECIMALS } from './fiat';

/** Per day (`day` is the day's 1-based position in the range) and network/token. */
type OrderRow = {
  day: number;
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
  day: number;
  network: Network;
  token: Token;
  quote_currency: string;
  units: string;
  fiat: string;
};

/**
 * One statement, one round trip, prepared (server/db/prepared-statements.ts): both groupings come
 * back as JSON arrays in a single row. The range's day boundaries are computed once (31 time zone
 * conversions), and each hour finds its day in them by a binary search (`width_bucket`), instead
 * of converting and formatting every hour's time in the zone and grouping by text (1,440 of each
 * for 30 days of one network/token: half the statement's time).
 */
const SUMMARY_SQL = `
  WITH r AS (
    SELECT ARRAY(SELECT d::timestamp AT TIME ZONE $timeZone
                   FROM generate_series(CAST($from AS date), CAST($to AS date) + 1, interval '1 day') AS d) AS b
  )
  SELECT (SELECT coalesce(json_agg(o), '[]') FROM (
            SELECT width_bucket(s.hour, r.b) AS day, s.network, s.token, sum(s.created)::int AS created,
                   sum(s.pending)::int AS pending, sum(s.confirming)::int AS confirming, sum(s.paid)::int AS paid,
                   sum(s.underpaid)::int AS underpaid, sum(s.expired)::int AS expired
              FROM order_stats_hourly s
             WHERE s.merchant_id = $merchantId AND s.hour >= r.b[1] AND s.hour < r.b[cardinality(r.b)]
             GROUP BY 1, 2, 3) o) AS orders,
         (SELECT coalesce(json_agg(p), '[]') FROM (
            SELECT width_bucket(s.hour, r.b) AS day, s.network, s.token, s.quote_currency,
                   sum(s.received_units)::text AS units, round(sum(s.received_fiat), 6)::text AS fiat
              FROM payment_stats_hourly s
             WHERE s.merchant_id = $merchantId AND s.hour >= r.b[1] AND s.hour < r.b[cardinality(r.b)]
             GROUP BY 1, 2, 3, 4) p) AS payments
    FROM r`;

const tokenKey = (r: { network: string; token: string }) => `${r.network}|${r.token}`;

function tokenAmounts(rows: readonly PaymentRow[]) {
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

function fiatAmounts(rows: readonly PaymentRow[]) {
  const sums = new Map<string, bigint>();
  for (const r of rows)
    if (r.quote_currency)
      sums.set(r.quote_currency, (sums.get(r.quote_currency) ?? 0n) + parseUnits(r.fiat, 6));
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, micros]) => ({ currency, amount: formatFiatCents(micros) }));
}

/** Rows by their day's position in the range (0-based). */
function byDay<R extends { day: number }>(rows: readonly R[], days: number): R[][] {
  const out = Array.from({ length: days }, (): R[] => []);
  for (const r of rows) out[r.day - 1]?.push(r);
  return out;
}

async function compute(
  db: Pick<Database, 'prepared'>,
  merchantId: string,
  range: DateRange,
): Promise<DashboardSummary> {
  const [row] = await db.prepared.run<{ orders: OrderRow[]; payments: PaymentRow[] }>(SUMMARY_SQL, {
    merchantId,
    from: range.from,
    to: range.to,
    timeZone: range.timeZone,
  });
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
  const sum = (rows: readonly OrderRow[], key: 'created' | 'paid') => rows.reduce((n, r) => n + r[key], 0);
  const ordersByDay = byDay(orders, range.days.length);
  const paymentsByDay = byDay(payments, range.days.length);
  return {
    from: range.from,
    to: range.to,
    timeZone: range.timeZone,
    received: tokenAmounts(payments),
    receivedFiat: fiatAmounts(payments),
    ordersCreated: sum(orders, 'created'),
    ordersPaid: sum(orders, 'paid'),
    byStatus,
    days: range.days.map((date, i) => ({
      date,
      ordersCreated: sum(ordersByDay[i]!, 'created'),
      ordersPaid: sum(ordersByDay[i]!, 'paid'),
      received: tokenAmounts(paymentsByDay[i]!),
      receivedFiat: fiatAmounts(paymentsByDay[i]!),
    })),
  };
}

/** Where the refresh job announces a merchant's changed figures (server/dashboard/refresh-stats.ts). */
export const SUMMARY_TOPIC = 'dashboard_stats';
/** As long as any remembered row (server/db/caches.ts): bounds what a missed announcement can cost. */
const TRUSTED_FOR_MS = 60_000;
const MAX_MERCHANTS = 1_000;
/** Ranges remembered per merchant: the overview asks a few (today, 7 and 30 days). */
const MAX_RANGES = 8;

type SummaryCache = {
  get(merchantId: string, range: DateRange): Promise<DashboardSummary>;
  forget(merchantIds: Iterable<string>): void;
};

/**
 * Answers remembered per merchant and (range, time zone) while the change feed is live, as
 * server/db/row-cache.ts remembers rows. An answer depends only on the merchant's hourly figures,
 * which only refreshDashboardStats writes: it announces the merchants whose figures it changed on
 * commit (every instance forgets their answers) and forgets them here at once. A computation that
 * overlaps an announcement or a reset is returned but not kept: it may have read the figures from
 * before the change.
 */
function createSummaryCache(db: Pick<Database, 'prepared' | 'changes'>): SummaryCache {
  const answers = new LRUCache<string, Map<string, DashboardSummary>>({
    max: MAX_MERCHANTS,
    ttl: TRUSTED_FOR_MS,
  });
  let changes = 0;
  const forgetOne = (merchantId: string) => {
    changes++;
    answers.delete(merchantId);
  };
  db.changes.subscribe(SUMMARY_TOPIC, {
    onChange: forgetOne,
    onReset: () => {
      changes++;
      answers.clear();
    },
  });
  return {
    async get(merchantId, range) {
      const key = `${range.from}|${range.to}|${range.timeZone}`;
      if (db.changes.live) {
        const hit = answers.get(merchantId)?.get(key);
        if (hit) return hit;
      }
      const before = changes;
      const summary = deepFreeze(await compute(db, merchantId, range));
      if (db.changes.live && changes === before) {
        // The merchant's entry keeps the TTL of its first answer: none is trusted longer.
        let ranges = answers.get(merchantId);
        if (!ranges) answers.set(merchantId, (ranges = new Map()));
        if (ranges.size >= MAX_RANGES) ranges.delete(ranges.keys().next().value!);
        ranges.set(key, summary);
      }
      return summary;
    },
    forget(merchantIds) {
      for (const id of merchantIds) forgetOne(id);
    },
  };
}

/** One answer serves many requests: none may change it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const caches = new WeakMap<object, SummaryCache>();
function cacheOf(db: Pick<Database, 'prepared' | 'changes'>): SummaryCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = createSummaryCache(db)));
  return cache;
}

/** Drops this instance's remembered answers for these merchants (their figures just changed). */
export function forgetSummaries(deps: Pick<Deps, 'db'>, merchantIds: Iterable<string>): void {
  caches.get(deps.db)?.forget(merchantIds);
}

/**
 * The overview's figures for the days from..to in a time zone, from the hourly figures the
 * refresh-dashboard-stats job keeps (migration 0016): at most 24 rows per day and network/token,
 * whatever the number of orders, and remembered until the job changes the merchant's figures.
 * Days are cut at the hour, so in a zone whose offset is not whole hours an order within the half
 * hour after midnight counts on the day before.
 */
export async function summarize(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: DateRangeQuery,
): Promise<DashboardSummary> {
  return cacheOf(deps.db).get(merchantId, dateRange(query));
}
