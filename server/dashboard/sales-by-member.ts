import type { DateRangeQuery, MemberSales, Token } from '../../contract';
import { formatUnits } from '../../contract/decimal';
import type { Deps } from '../deps';
import { dateRange, RANGE_END_SQL, RANGE_START_SQL } from './date-range';
import { formatFiatCents } from './fiat';

type Row = {
  member_id: string;
  email: string;
  name: string | null;
  created: number;
  paid: number;
  received: { token: Token; units: string }[] | null;
  fiat: { currency: string; units: string }[] | null;
};

/** Received amounts in wire units (10^-6 token); quotes are stored in wire units too. */
const WIRE = 6;

/**
 * Each member's (or one member's) orders created in the range (its sales at the point of sale): counted, and what
 * the PAID ones received per token and in their quote currency. Read from the orders (index
 * orders_by_member, migration 0032): a day's sales of a shop are a few hundred rows.
 */
const SQL = `
  WITH o AS (
    SELECT (created_by->>'memberId')::uuid AS member_id, status, token, quote_currency, quote_units,
           amount_received_units * power(10::numeric, ${WIRE} - coalesce(sum_decimals, token_decimals)) AS wire
      FROM orders
     WHERE merchant_id = $merchantId AND created_by ? 'memberId'
       AND (CAST($memberId AS text) IS NULL OR created_by->>'memberId' = CAST($memberId AS text))
       AND created_at >= ${RANGE_START_SQL} AND created_at < ${RANGE_END_SQL}
  )
  SELECT m.id AS member_id, m.email, m.name,
         (SELECT count(*)::int FROM o WHERE o.member_id = m.id) AS created,
         (SELECT count(*)::int FROM o WHERE o.member_id = m.id AND o.status = 'PAID') AS paid,
         (SELECT json_agg(t ORDER BY t.token) FROM (
            SELECT token, trunc(sum(wire))::text AS units FROM o
             WHERE o.member_id = m.id AND o.status = 'PAID' GROUP BY token) t) AS received,
         (SELECT json_agg(f ORDER BY f.currency) FROM (
            SELECT quote_currency AS currency, sum(quote_units)::text AS units FROM o
             WHERE o.member_id = m.id AND o.status = 'PAID' AND quote_currency IS NOT NULL
             GROUP BY quote_currency) f) AS fiat
    FROM members m
   WHERE m.merchant_id = $merchantId AND m.id IN (SELECT member_id FROM o)`;

export async function salesByMember(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: DateRangeQuery,
  /** Only this member's sales (GET /dashboard/sales/mine); every member's by default. */
  memberId: string | null = null,
): Promise<MemberSales[]> {
  const range = dateRange(query);
  const rows = await deps.db.prepared.run<Row>(SQL, {
    merchantId,
    memberId,
    from: range.from,
    to: range.to,
    timeZone: range.timeZone,
  });
  return rows
    .map((r) => ({
      memberId: r.member_id,
      email: r.email,
      name: r.name,
      ordersCreated: r.created,
      ordersPaid: r.paid,
      received: (r.received ?? []).map((t) => ({
        token: t.token,
        amount: formatUnits(BigInt(t.units), WIRE, 0),
      })),
      // Quotes are wire units: to micros as the overview's fiat figures, then cents.
      receivedFiat: (r.fiat ?? []).map((f) => ({
        currency: f.currency,
        amount: formatFiatCents(BigInt(f.units)),
      })),
    }))
    .sort((a, b) => b.ordersPaid - a.ordersPaid || a.email.localeCompare(b.email));
}
