import { select } from './database';
import type { Findings, Line, Section } from './findings';
import { SIZES } from './settings';
import type { Stack } from './stack';
import type { Work } from './workload';

type OrderFacts = {
  reference: string;
  status: string;
  amount_units: string;
  amount_received_units: string;
  verified_audits: number;
  verified_claims: number;
  expired_audits: number;
  repeated_status_changes: number;
  created_events: number;
  paid_events: number;
  expired_events: number;
};

/** What happened to each of the merchant's orders: audit entries, claims and events, counted. */
const orderFacts = (stack: Stack) =>
  select<OrderFacts>(
    stack,
    `SELECT o.reference, o.status, o.amount_units::text, o.amount_received_units::text,
       (SELECT count(*)::int FROM audit_entries a WHERE a.order_id = o.id AND a.type = 'payment.verified') AS verified_audits,
       (SELECT count(*)::int FROM payment_claims c WHERE c.order_id = o.id AND c.status = 'VERIFIED') AS verified_claims,
       (SELECT count(*)::int FROM audit_entries a
         WHERE a.order_id = o.id AND a.type = 'status.changed' AND a.data->>'to' = 'EXPIRED') AS expired_audits,
       (SELECT count(*)::int FROM (SELECT 1 FROM audit_entries a WHERE a.order_id = o.id AND a.type = 'status.changed'
         GROUP BY a.data->>'to' HAVING count(*) > 1) r) AS repeated_status_changes,
       (SELECT count(*)::int FROM events e WHERE e.order_id = o.id AND e.type = 'order.created') AS created_events,
       (SELECT count(*)::int FROM events e WHERE e.order_id = o.id AND e.type = 'order.paid') AS paid_events,
       (SELECT count(*)::int FROM events e WHERE e.order_id = o.id AND e.type = 'order.expired') AS expired_events
     FROM orders o WHERE o.merchant_id = :merchantId`,
    { merchantId: stack.merchantId },
  );

/** How many of `list` are there and `ok`. */
const all = <T>(list: (T | undefined)[], ok: (x: T) => boolean) => list.filter((x) => x && ok(x)).length;

/** Background jobs, once per slot: one order per key, each payment verified and each expiry applied once. */
export async function jobsSection(findings: Findings, stack: Stack, work: Work): Promise<Section> {
  const facts = await orderFacts(stack);
  const byRef = new Map(facts.map((f) => [f.reference, f]));
  const keys = SIZES.paid + SIZES.expiring;
  const [idem] = await select<{ n: number }>(
    stack,
    'SELECT count(*)::int AS n FROM idempotency_keys WHERE merchant_id = :merchantId',
    { merchantId: stack.merchantId },
  );
  const repeated = all(facts, (f) => f.repeated_status_changes > 0);
  return {
    section: 'Background jobs: once per slot',
    rows: [
      findings.check(
        'orders in the database for the Idempotency-Keys sent',
        `${facts.length} for ${keys} keys (${idem?.n ?? 0} keys stored)`,
        facts.length === keys && work.created === keys,
      ),
      findings.fraction(
        'order.created once per order',
        all(facts, (f) => f.created_events === 1),
        facts.length,
      ),
      paidKinds(work),
      ...paidRows(
        findings,
        work.paid.map((p) => byRef.get(p.reference)),
      ),
      ...expiredRows(
        findings,
        work.expiring.map((r) => byRef.get(r)),
      ),
      findings.check('orders with a status change applied twice', String(repeated), repeated === 0),
    ],
  };
}

function paidKinds(work: Work): Line {
  const { paid } = work;
  const count = (withReference: boolean, reported: boolean) =>
    paid.filter((p) => p.withReference === withReference && p.reported === reported).length;
  return {
    label: 'paid on chain',
    value:
      `${paid.length}: reference + submit-tx ${count(true, true)}, amount only + submit-tx ${count(false, true)}, ` +
      `reference, found by the scanner ${count(true, false)}, amount only, found by the scanner ${count(false, false)}`,
  };
}

type Check = [label: string, holds: (facts: OrderFacts) => boolean];

/** One line per check: the share of `facts` (out of `size` orders) it holds for. */
const checkRows = (
  findings: Findings,
  facts: (OrderFacts | undefined)[],
  size: number,
  checks: Check[],
): Line[] => checks.map(([label, holds]) => findings.fraction(label, all(facts, holds), size));

const paidRows = (findings: Findings, paidFacts: (OrderFacts | undefined)[]) =>
  checkRows(findings, paidFacts, SIZES.paid, [
    ['paid orders PAID', (f) => f.status === 'PAID'],
    ['... exactly one payment.verified audit entry', (f) => f.verified_audits === 1],
    [
      '... exactly one VERIFIED claim, credited once',
      (f) => f.verified_claims === 1 && f.amount_received_units === f.amount_units,
    ],
    ['... exactly one order.paid event', (f) => f.paid_events === 1],
  ]);

const expiredRows = (findings: Findings, expFacts: (OrderFacts | undefined)[]) =>
  checkRows(findings, expFacts, SIZES.expiring, [
    ['expiring orders EXPIRED', (f) => f.status === 'EXPIRED'],
    ['... exactly one status.changed to EXPIRED', (f) => f.expired_audits === 1],
    ['... exactly one order.expired event', (f) => f.expired_events === 1],
  ]);
