import type { Transaction } from 'sequelize';
import { refundHoldsAmount } from '../../contract';
import type { Database } from '../db/database';
import type { Order } from '../db/models';
import { optionOf, sumDecimalsOf, toSumUnits, type OptionFields } from './payment-options';

/** What may still be refunded: received less what every refund holds (refundHoldsAmount); never negative. */
export function refundableUnits(receivedUnits: bigint, committedUnits: bigint): bigint {
  const left = receivedUnits - committedUnits;
  return left > 0n ? left : 0n;
}

/**
 * What each order can still refund at `now` (its `amountRefundable`), by order id: what it received
 * less what its refunds hold, by the contract's one rule. One read for any number of orders; none
 * for orders that received nothing, which have no refund.
 */
type Refundable = OptionFields & Pick<Order, 'id' | 'amountReceivedUnits' | 'sumDecimals'>;

export async function refundableUnitsOf(
  db: Database,
  orders: readonly Refundable[],
  now: Date,
  transaction?: Transaction,
): Promise<Map<string, bigint>> {
  const held = new Map<string, bigint>();
  const received = orders.filter((o) => o.amountReceivedUnits > 0n).map((o) => o.id);
  if (received.length > 0) {
    const refunds = await db.models.Refund.findAll({
      where: { orderId: received },
      attributes: ['orderId', 'status', 'amountUnits', 'lateUntil', 'optionIndex'],
      transaction,
    });
    const byId = new Map(orders.map((o) => [o.id, o]));
    for (const refund of refunds) {
      const order = byId.get(String(refund.orderId));
      if (!order || !refundHoldsAmount(refund, now)) continue;
      // In the order's sum units, whatever the refunded option's decimals.
      const units = toSumUnits(
        refund.amountUnits,
        optionOf(order, refund.optionIndex).decimals,
        sumDecimalsOf(order),
      );
      held.set(order.id, (held.get(order.id) ?? 0n) + units);
    }
  }
  return new Map(orders.map((o) => [o.id, refundableUnits(o.amountReceivedUnits, held.get(o.id) ?? 0n)]));
}

/** One order's `amountRefundable`, in base units. */
export async function refundableUnitsOfOrder(
  db: Database,
  order: Refundable,
  now: Date,
  transaction?: Transaction,
): Promise<bigint> {
  return (await refundableUnitsOf(db, [order], now, transaction)).get(order.id)!;
}
