import type { RefundStatus } from '../../contract';

/** Refunds still on their way: they FAIL at their deadline. */
export const OPEN_REFUND_STATUSES = [
  'AWAITING_ADDRESS',
  'AWAITING_APPROVAL',
  'PENDING',
] as const satisfies readonly RefundStatus[];

/** Refunds the verifier may look at: the open ones, and FAILED ones in their late window. */
export const WATCHED_REFUND_STATUSES = [
  ...OPEN_REFUND_STATUSES,
  'FAILED',
] as const satisfies readonly RefundStatus[];

/**
 * The late window of a refund that fails now: until then its transfer is still looked for and
 * recorded, and its amount stays held (refundHoldsAmount). Only a refund that could be sent has one:
 * without an approved address there is no transaction to land late.
 */
export function lateUntil(failedAt: Date, hadTarget: boolean, windowSeconds: number): Date | null {
  return hadTarget ? new Date(failedAt.getTime() + windowSeconds * 1000) : null;
}

/**
 * The amount of a new refund: the one asked for, or everything refundable. A string saying why
 * when it cannot be refunded.
 */
export function refundAmount(
  requestedUnits: bigint | null,
  refundable: bigint,
): { ok: true; units: bigint } | { ok: false; reason: string } {
  if (refundable === 0n) return { ok: false, reason: 'nothing is left to refund' };
  if (requestedUnits === null) return { ok: true, units: refundable };
  if (requestedUnits > refundable) return { ok: false, reason: 'is more than what is left to refund' };
  return { ok: true, units: requestedUnits };
}

/** When a refund without a verified transfer fails: the deadline after it became sendable. */
export function refundDeadline(from: Date, deadlineSeconds: number): Date {
  return new Date(from.getTime() + deadlineSeconds * 1000);
}
