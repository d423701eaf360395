import type { Transaction } from 'sequelize';
import type { Deps } from '../deps';
import { wakeJobSql } from '../db/wake-up';
import { OPEN_ORDER_STATUSES } from './order-status';

/**
 * Orders made for something another order has paid (a subscription period's remade order, once
 * the expired one was paid late) are closed for good at `at`: never payable again, not even in
 * the late window an expired order has (`superseded_at`, server/orders/payable.ts), and an open one's
 * expiry moves there, so the expiry job, woken on commit, moves it to EXPIRED with its event and
 * audit, as any order. An order being settled at this moment is skipped (SKIP LOCKED): the caller
 * holds its subscription's lock, which a settlement takes after the order's, so waiting could
 * deadlock; that settlement marks the subscription due again, and the next look closes what is
 * still open. A PAID order is left as it is.
 */
export async function closeSupersededOrders(
  deps: Pick<Deps, 'db'>,
  transaction: Transaction,
  orderIds: readonly string[],
  at: Date,
): Promise<void> {
  if (orderIds.length === 0) return;
  await deps.db.sequelize.query(
    `WITH closing AS (
       SELECT id FROM orders
        WHERE id IN (:ids) AND status <> 'PAID' AND superseded_at IS NULL
        FOR UPDATE SKIP LOCKED),
     closed AS (
       UPDATE orders SET superseded_at = :at,
              expires_at = CASE WHEN status IN (:statuses) THEN least(expires_at, :at) ELSE expires_at END
         FROM closing WHERE orders.id = closing.id
       RETURNING orders.status)
     SELECT ${wakeJobSql('expire-orders')} FROM closed WHERE status IN (:statuses) LIMIT 1`,
    // CONFIRMING too: the expiry job expires it unless a claim that can prove something holds it
    // (HOLDS_PAST_EXPIRY_SQL); a payment under way is still credited, as an overpayment, refundable.
    { replacements: { ids: orderIds, statuses: [...OPEN_ORDER_STATUSES], at }, transaction },
  );
}
