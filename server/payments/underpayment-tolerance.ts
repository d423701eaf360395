import type { Config } from '../config';

export const BPS_DENOMINATOR = 10_000n;

/** The tolerance in force for a merchant: its profile's setting, else the server's. */
export function toleranceBps(
  config: Pick<Config, 'UNDERPAYMENT_TOLERANCE_BPS'>,
  merchant: { underpaymentToleranceBps: number | null } | null,
): number {
  return merchant?.underpaymentToleranceBps ?? config.UNDERPAYMENT_TOLERANCE_BPS;
}

/** Base units an order of `amountUnits` may fall short by and still be PAID (rounded down). */
export function toleranceUnits(amountUnits: bigint, bps: number): bigint {
  return (amountUnits * BigInt(bps)) / BPS_DENOMINATOR;
}

/** How short of the amount the payments fall; 0 when paid in full or more. */
export function shortfallUnits(order: { amountUnits: bigint; amountReceivedUnits: bigint }): bigint {
  const short = order.amountUnits - order.amountReceivedUnits;
  return short > 0n ? short : 0n;
}

/** Whether final payments pay the order: in full, or short by no more than the tolerance. */
export function paysOrder(order: { amountUnits: bigint; amountReceivedUnits: bigint }, bps: number): boolean {
  return shortfallUnits(order) <= toleranceUnits(order.amountUnits, bps);
}
