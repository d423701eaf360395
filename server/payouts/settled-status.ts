import type { PayoutItemStatus, PayoutStatus } from '../../contract';

/** Where a batch ends once none of its items is open: COMPLETED, PARTIAL or FAILED; null while one is. */
export function settledStatus(
  items: readonly PayoutItemStatus[],
): Extract<PayoutStatus, 'COMPLETED' | 'PARTIAL' | 'FAILED'> | null {
  if (items.length === 0 || items.some((s) => s === 'PENDING' || s === 'SENT')) return null;
  const confirmed = items.filter((s) => s === 'CONFIRMED').length;
  if (confirmed === items.length) return 'COMPLETED';
  return confirmed === 0 ? 'FAILED' : 'PARTIAL';
}
