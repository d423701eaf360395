import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps';
import { appendEvent, type DeliveryTarget, type NewEvent } from './append-events';
import { leaseSeconds } from './lease-deliveries';
import type { RecordedAttempt } from './record-attempts';
import { sendNow } from './send-now';

/**
 * Writes an event with one delivery task and sends it now, once (a test delivery): the task is
 * written leased to this call, so no worker takes it, and its outcome is final (a failure is not
 * retried; nothing is held for a missing secret). The same send, signature and record as every
 * delivery. Returns the recorded attempt.
 */
export async function deliverOnce(
  deps: Deps,
  event: Omit<NewEvent, 'targets'>,
  target: DeliveryTarget,
): Promise<NonNullable<RecordedAttempt>> {
  const owner = `once:${randomUUID()}`;
  const task = await deps.db.sequelize.transaction(async (transaction) => {
    await appendEvent(deps.db, transaction, { ...event, targets: [] });
    return deps.db.models.EventDelivery.create(
      {
        eventId: event.id,
        channel: target.channel,
        target: target.target,
        status: 'PENDING',
        attempts: 0,
        nextAttemptAt: event.at,
        lockedBy: owner,
        lockedUntil: new Date(deps.clock().getTime() + leaseSeconds(deps) * 1000),
        createdAt: event.at,
        updatedAt: event.at,
      },
      { transaction },
    );
  });
  const sent = await sendNow(deps, String(task.id), { owner });
  if (!sent || 'held' in sent) throw new Error(`test delivery ${task.id} was not recorded`);
  return sent.recorded;
}
