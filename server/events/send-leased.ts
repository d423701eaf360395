import { releaseLease, renewLease } from '../db/lease';
import type { Deps } from '../deps';
import type { Delivery, Outcome } from './delivery';
import { SLOW_SEND_MS, type DestinationLimits } from './destination-limits';
import { leaseSeconds } from './lease-deliveries';
import { sendDelivery } from './send-delivery';

/**
 * Sends one task the sender's loop leased, once its destination has a request slot, and records the
 * attempt. False when it did not send it: the lease was lost, or the destination turned slow while
 * the task waited (the task is given back now rather than held behind the requests in flight).
 */
export async function sendLeased(
  deps: Deps,
  {
    delivery,
    destination,
    owner,
    limits,
  }: { delivery: Delivery; destination: string; owner: string; limits: DestinationLimits },
): Promise<boolean> {
  const { id, lockedBy } = delivery.task;
  if (lockedBy !== owner) return false;
  const queuedAt = performance.now();
  const at = await limits.take(destination);
  if (at === null) {
    await releaseLease(deps, { table: 'event_deliveries', key: { id }, owner });
    return false;
  }
  let outcome: Outcome | null = null;
  try {
    // Waited for its turn long enough to matter: the lease covers the send from now.
    const renew = { table: 'event_deliveries' as const, key: { id }, owner, seconds: leaseSeconds(deps) };
    if (at - queuedAt > SLOW_SEND_MS && !(await renewLease(deps, renew))) return false;
    outcome = await sendDelivery(deps, delivery);
  } finally {
    limits.free(destination, at, outcome?.durationMs ?? null);
  }
  await deps.recordAttempt({ ...outcome, taskId: id, owner });
  return true;
}
