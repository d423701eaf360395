import { QueryTypes, type Transaction } from 'sequelize';
import type { OrderStatus } from '../../contract';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { HOLDS_PAST_EXPIRY_SQL } from '../orders/order-status';
import { paysOrder } from './underpayment-tolerance';

/**
 * The status the facts give, once a claim is settled. PAID is terminal; an order short by no more
 * than the underpayment tolerance (`bps` of its amount) is PAID too.
 */
export async function statusFromFacts(
  deps: Pick<Deps, 'db' | 'clock'>,
  order: Order,
  transaction: Transaction,
  bps: number,
): Promise<OrderStatus> {
  if (order.status === 'PAID' || paysOrder(order, bps)) return 'PAID';
  const [open] = await deps.db.sequelize.query<{ pending: string; holding: string }>(
    `SELECT count(*) AS pending, count(*) FILTER (WHERE ${HOLDS_PAST_EXPIRY_SQL}) AS holding
       FROM payment_claims WHERE order_id = :orderId AND status = 'PENDING'`,
    { type: QueryTypes.SELECT, replacements: { orderId: order.id }, transaction },
  );
  const expired = deps.clock() > order.expiresAt;
  if (Number(open!.holding) > 0 || (!expired && Number(open!.pending) > 0)) return 'CONFIRMING';
  if (expired) return 'EXPIRED';
  return order.amountReceivedUnits > 0n ? 'UNDERPAID' : 'PENDING';
}
