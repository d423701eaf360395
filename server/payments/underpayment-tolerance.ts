import type { Config } from '../config';
import { priceSumUnits, shortfallSumUnits } from '../orders/payment-options';

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

/**
 * Whether final payments pay the order: in full (on any of its options: its smallest amount), or
 * short by no more than the tolerance.
 */
export function paysOrder(order: Parameters<typeof shortfallSumUnits>[0], bps: number): boolean {
  return shortfallSumUnits(order) <= toleranceUnits(priceSumUnits(order), bps);
}
