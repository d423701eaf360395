import type { Transaction } from 'sequelize';
import { refundHoldsAmount } from '../../contract';
import type { Database } from '../db/database';

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
 * lock on the order, so no refund can settle or be made meanwhile.
 */
export async function committedRefunds(
  db: Database,
  orderId: string,
  now: Date,
  transaction: Transaction,
): Promise<CommittedRefunds> {
  const refunds = await db.models.Refund.findAll({
    where: { orderId },
    attributes: ['status', 'amountUnits', 'lateUntil'],
    transaction,
  });
  const committed: CommittedRefunds = { units: 0n, failedUnits: 0n, failedUntil: null };
  for (const refund of refunds) {
    if (!refundHoldsAmount(refund, now)) continue;
    committed.units += refund.amountUnits;
    if (refund.status !== 'FAILED' || !refund.lateUntil) continue;
    committed.failedUnits += refund.amountUnits;
    if (!committed.failedUntil || refund.lateUntil > committed.failedUntil)
      committed.failedUntil = refund.lateUntil;
  }
  return committed;
}
