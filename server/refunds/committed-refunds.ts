import type { Transaction } from 'sequelize';
import { refundHoldsAmount } from '../../contract';
import type { Database } from '../db/database';
import type { Order } from '../db/models';
import { optionOf, sumDecimalsOf, toSumUnits } from '../orders/payment-options';

export type CommittedRefunds = {
  /** Base units every holding refund takes from what the order received. */
  units: bigint;
  /** The part of it held by FAILED refunds whose transfer may still land, and until when at the latest. */
  failedUnits: bigint;
  failedUntil: Date | null;
};

/**
 * What an order's refunds hold of what it received (the contract's refundHoldsAmount): sent, being
 * sent, waiting, or FAILED but still able to land. Read inside the caller's transaction, under its
 * lock on the order, so no refund can settle or be made meanwhile. In the order's sum units; with
 * `optionIndex`, only the refunds of that payment option, in its token's base units.
 */
export async function committedRefunds(
  db: Database,
  order: Order,
  now: Date,
  transaction: Transaction,
  optionIndex?: number,
): Promise<CommittedRefunds> {
  const refunds = await db.models.Refund.findAll({
    where: { orderId: order.id, ...(optionIndex === undefined ? {} : { optionIndex }) },
    attributes: ['status', 'amountUnits', 'lateUntil', 'optionIndex'],
    transaction,
  });
  const committed: CommittedRefunds = { units: 0n, failedUnits: 0n, failedUntil: null };
  const units = (refund: (typeof refunds)[number]) =>
    optionIndex === undefined
      ? toSumUnits(refund.amountUnits, optionOf(order, refund.optionIndex).decimals, sumDecimalsOf(order))
      : refund.amountUnits;
  for (const refund of refunds) {
    if (!refundHoldsAmount(refund, now)) continue;
    committed.units += units(refund);
    if (refund.status !== 'FAILED' || !refund.lateUntil) continue;
    committed.failedUnits += units(refund);
    if (!committed.failedUntil || refund.lateUntil > committed.failedUntil)
      committed.failedUntil = refund.lateUntil;
  }
  return committed;
}
