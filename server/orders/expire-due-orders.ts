import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';
import { applyTransition } from '../events/lifecycle';
import { ORDER_LIFECYCLE } from './order-lifecycle';
import { HOLDS_PAST_EXPIRY_SQL, OPEN_ORDER_STATUSES } from './order-status';

/** SQL over the orders alias `o`: not a CONFIRMING order that one of its open claims holds. */
const NOT_HELD = `(o.status <> 'CONFIRMING' OR NOT EXISTS (
  SELECT 1 FROM payment_claims c WHERE c.order_id = o.id AND c.status = 'PENDING' AND ${HOLDS_PAST_EXPIRY_SQL}))`;

/**
 * PENDING and UNDERPAID orders past expiresAt become EXPIRED, one bounded batch per call, and so do
 * CONFIRMING ones that only a payer's unsigned report holds (HOLDS_PAST_EXPIRY_SQL); a CONFIRMING order
 * with another claim open waits for its verification, which settles it. Rows are taken with FOR
 * UPDATE SKIP LOCKED and re-checked, so concurrent instances never expire one twice.
 */
export async function expireDueOrders(deps: Deps, opts: { batchSize: number }): Promise<number> {
  const { sequelize, models } = deps.db;
  return sequelize.transaction(async (transaction) => {
    const rows = await sequelize.query<{ id: string }>(
      `SELECT id FROM orders o
        WHERE status IN (:statuses) AND expires_at <= :now AND ${NOT_HELD}
        ORDER BY expires_at LIMIT :batch FOR UPDATE OF o SKIP LOCKED`,
      {
        type: QueryTypes.SELECT,
        replacements: { statuses: [...OPEN_ORDER_STATUSES], now: deps.clock(), batch: opts.batchSize },
        transaction,
      },
    );
    if (rows.length === 0) return 0;
    // Asked again now the rows are locked (reports take the order's lock): a report that committed
    // while the first read waited for a row made it CONFIRMING, which that read's claims predate.
    const still = await sequelize.query<{ id: string }>(
      `SELECT id FROM orders o WHERE id IN (:ids) AND ${NOT_HELD}`,
      {
        type: QueryTypes.SELECT,
        replacements: { ids: rows.map((r) => r.id) },
        transaction,
      },
    );
    const orders = await models.Order.findAll({ where: { id: still.map((r) => r.id) }, transaction });
    for (const order of orders)
      await applyTransition(deps, transaction, ORDER_LIFECYCLE, order, {
        cause: 'expired',
        to: 'EXPIRED',
        actor: 'system',
        reason:
          order.amountReceivedUnits > 0n
            ? 'expired with a partial payment'
            : order.status === 'CONFIRMING'
              ? 'expired; unsigned payment reports are still checked'
              : 'expired without payment',
      });
    return orders.length;
  });
}
