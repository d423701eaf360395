import type { Transaction } from 'sequelize';
import type { Deps } from '../deps';
import { wakeJobSql } from '../db/wake-up';
import { OPEN_ORDER_STATUSES } from './order-status';

/**
 * Orders made for something another order has paid (a subscription period's remade order, once
 * the expired one was paid late) stop being payable at `at`: their expiry moves there and the
 * expiry job, woken on commit, moves them to EXPIRED with its event and audit, as any order.
 * An order being settled at this moment is skipped (SKIP LOCKED): the caller holds its
 * subscription's lock, which a settlement takes after the order's, so waiting could deadlock; that
 * settlement marks the subscription due again, and the next look closes what is still open.
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
        WHERE id IN (:ids) AND status IN (:statuses) AND expires_at > :at
        FOR UPDATE SKIP LOCKED),
     closed AS (UPDATE orders SET expires_at = :at FROM closing WHERE orders.id = closing.id RETURNING 1)
     SELECT ${wakeJobSql('expire-orders')} FROM closed LIMIT 1`,
    // CONFIRMING too: the expiry job expires it unless a claim that can prove something holds it
    // (HOLDS_PAST_EXPIRY_SQL); a payment under way is still credited, as an overpayment, refundable.
    { replacements: { ids: orderIds, statuses: [...OPEN_ORDER_STATUSES], at }, transaction },
  );
}
