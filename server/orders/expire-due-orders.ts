import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';
import { applyTransition } from '../events/lifecycle';
import { ORDER_LIFECYCLE } from './order-lifecycle';
import { EXPIRABLE_STATUSES } from './order-status';

/**
 * PENDING and UNDERPAID orders past expiresAt become EXPIRED, one bounded batch per call. Rows are
 * taken with FOR UPDATE SKIP LOCKED and re-checked, so concurrent instances never expire one twice.
 * (A CONFIRMING order waits for its verification; the verifier settles it.)
 */
export async function expireDueOrders(deps: Deps, opts: { batchSize: number }): Promise<number> {
  const { sequelize, models } = deps.db;
  return sequelize.transaction(async (transaction) => {
    const rows = await sequelize.query<{ id: string }>(
      `SELECT id FROM orders WHERE status IN (:statuses) AND expires_at <= :now
        ORDER BY expires_at LIMIT :batch FOR UPDATE SKIP LOCKED`,
      {
        type: QueryTypes.SELECT,
        replacements: { statuses: [...EXPIRABLE_STATUSES], now: deps.clock(), batch: opts.batchSize },
        transaction,
      },
    );
    if (rows.length === 0) return 0;
    const orders = await models.Order.findAll({ where: { id: rows.map((r) => r.id) }, transaction });
    for (const order of orders)
      await applyTransition(deps, transaction, ORDER_LIFECYCLE, order, {
        cause: 'expired',
        to: 'EXPIRED',
        actor: 'system',
        reason: order.status === 'UNDERPAID' ? 'expired with a partial payment' : 'expired without payment',
      });
    return orders.length;
  });
}
