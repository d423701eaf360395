import { select } from './database';
import type { Stack } from './stack';
import type { PaidOrder } from './workload';

export type EventRow = { id: string; type: string; order_id: string; created_at: Date; body: string };

export const merchantEvents = (stack: Stack) =>
  select<EventRow>(
    stack,
    `SELECT id, type, order_id::text, created_at, body FROM events WHERE merchant_id = :merchantId`,
    { merchantId: stack.merchantId },
  );

/** Every paid order PAID, every expiring one EXPIRED, and every event delivered and received. */
export async function converged(stack: Stack, paid: PaidOrder[], expiring: string[]): Promise<boolean> {
  const [counts] = await select<{ paid: number; expired: number; undelivered: number }>(
    stack,
    `SELECT
       (SELECT count(*)::int FROM orders WHERE reference IN (:paid) AND status = 'PAID') AS paid,
       (SELECT count(*)::int FROM orders WHERE reference IN (:expiring) AND status = 'EXPIRED') AS expired,
       (SELECT count(*)::int FROM event_deliveries d JOIN events e ON e.id = d.event_id
         WHERE e.merchant_id = :merchantId AND d.status <> 'DELIVERED') AS undelivered`,
    {
      paid: paid.length ? paid.map((p) => p.reference) : [''],
      expiring: expiring.length ? expiring : [''],
      merchantId: stack.merchantId,
    },
  );
  if (!counts || counts.paid < paid.length || counts.expired < expiring.length || counts.undelivered > 0)
    return false;
  const received = new Set(stack.receiver.received.map((r) => r.json.id));
  return (await merchantEvents(stack)).every((e) => received.has(e.id));
}
