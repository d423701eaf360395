import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';
import { applyTransition } from '../events/lifecycle';
import { ORDER_LIFECYCLE } from './order-lifecycle';
import { EXPIRABLE_STATUSES, HOLDS_PAST_EXPIRY_SQL } from './order-status';

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
        WHERE status IN (:statuses, 'CONFIRMING') AND expires_at <= :now
          AND (status <> 'CONFIRMING' OR NOT EXISTS (
                SELECT 1 FROM payment_claims
                 WHERE order_id = o.id AND status = 'PENDING' AND ${HOLDS_PAST_EXPIRY_SQL}))
        ORDER BY expires_at LIMIT :batch FOR UPDATE OF o SKIP LOCKED`,
      {
        type: QueryTypes.SELECT,
        replacements: { statuses: [...EXPIRABLE_STATUSES], now: deps.clock(), batch: opts.batchSize },
        transaction,
      },
    );
    if (rows.length === 0) return 0;
    const orders = await models.Order.findAll({ where: { id: rows.map((r) => r.id) }, transaction });
    // Asked again now the rows are locked (reports take the order's lock): a report that committed
    // while the first read waited for a row made it CONFIRMING, which that read's claims predate.
    const confirming = orders.filter((o) => o.status === 'CONFIRMING').map((o) => o.id);
    const held = confirming.length
      ? await sequelize.query<{ order_id: string }>(
          `SELECT DISTINCT order_id FROM payment_claims
            WHERE order_id IN (:ids) AND status = 'PENDING' AND ${HOLDS_PAST_EXPIRY_SQL}`,
          { type: QueryTypes.SELECT, replacements: { ids: confirming }, transaction },
        )
      : [];
    const waiting = new Set(held.map((r) => String(r.order_id)));
    const expiring = orders.filter((o) => !waiting.has(o.id));
    for (const order of expiring)
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
    return expiring.length;
  });
}
