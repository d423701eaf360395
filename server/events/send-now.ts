import type { Deps } from '../deps';
import type { Caller } from './actor';
import type { Outcome } from './delivery';
import { loadDeliveries } from './load-deliveries';
import type { RecordedAttempt } from './record-attempts';
import { sendDelivery } from './send-delivery';

/**
 * What a send now came to: the recorded attempt, why it was held (nothing sent or recorded), or null
 * when there is no such task.
 */
export type SentNow = { held: string } | { recorded: NonNullable<RecordedAttempt> } | null;

/**
 * Sends one task now, outside the sender's loop, through the same send and recorder: a redelivery
 * (`manual`: recorded in the name of who asked, the task's schedule left alone) or a test delivery (`owner`: the task was
 * written leased to it, and its outcome is final, never retried nor held).
 */
export async function sendNow(
  deps: Deps,
  taskId: string,
  how: { manual: true; by: Caller } | { owner: string },
): Promise<SentNow> {
  const delivery = (await loadDeliveries(deps, [taskId])).get(taskId);
  if (!delivery) return null;
  let outcome: Outcome = await sendDelivery(deps, delivery);
  if ('owner' in how) outcome = { ...outcome, deferred: false, permanent: true };
  else if (outcome.deferred) return { held: outcome.error ?? 'held' };
  const recorded = await deps.recordAttempt({ ...outcome, taskId, ...how });
  return recorded && { recorded };
}
