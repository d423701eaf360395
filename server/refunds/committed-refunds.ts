import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database';
import { COMMITTED_REFUND_STATUSES } from './refund-rules';

/** Base units of an order's refunds that are sent, being sent or waiting for an address. */
export async function committedRefundUnits(
  db: Database,
  orderId: string,
  transaction: Transaction,
): Promise<bigint> {
  const [row] = await db.sequelize.query<{ sum: string }>(
    `SELECT COALESCE(SUM(amount_units), 0)::text AS sum FROM refunds
      WHERE order_id = :orderId AND status IN (:statuses)`,
    {
      type: QueryTypes.SELECT,
      replacements: { orderId, statuses: [...COMMITTED_REFUND_STATUSES] },
      transaction,
    },
  );
  return BigInt(row?.sum ?? '0');
}
