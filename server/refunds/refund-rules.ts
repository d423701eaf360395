import type { RefundStatus } from '../../contract';

/** Refunds that hold part of what an order received: sent, being sent, or waiting for an address or its approval. */
export const COMMITTED_REFUND_STATUSES = [
  'AWAITING_ADDRESS',
  'AWAITING_APPROVAL',
  'PENDING',
  'SUCCEEDED',
] as const satisfies readonly RefundStatus[];

/** Refunds the verifier still looks at. */
export const OPEN_REFUND_STATUSES = [
  'AWAITING_ADDRESS',
  'AWAITING_APPROVAL',
  'PENDING',
] as const satisfies readonly RefundStatus[];

/** What may still be refunded: received less every committed refund; never negative. */
export function refundableUnits(receivedUnits: bigint, committedUnits: bigint): bigint {
  const left = receivedUnits - committedUnits;
  return left > 0n ? left : 0n;
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
