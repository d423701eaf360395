import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';
import { wakeJob } from '../db/wake-up';

/** Events one run deletes at most, each with its delivery tasks and their attempt records. */
export const PRUNE_BATCH = 1000;

const DAY_MS = 86_400_000;

/**
 * Retention: events older than EVENT_RETENTION_DAYS are deleted, oldest first, one bounded batch per
 * call, with what belongs to them: their delivery tasks and the recorded webhook and messenger
 * attempts of those tasks (an order's delivery history loses its attempts past retention; its audit
 * entries stay). A task still pending then (held without a webhook secret for a month: retries end
 * after about a day) is dropped with its event; one being sent right now (leased) waits for a later
 * run. Events are taken with SKIP LOCKED, so instances running it at once delete disjoint batches;
 * a full batch wakes the job again, so a backlog drains without waiting for the schedule.
 */
export async function pruneEvents(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  opts: { batchSize: number },
): Promise<number> {
  const { sequelize } = deps.db;
  const now = deps.clock();
  const cutoff = new Date(now.getTime() - deps.config.EVENT_RETENTION_DAYS * DAY_MS);
  return sequelize.transaction(async (transaction) => {
    const doomed = await sequelize.query<{ id: string }>(
      `SELECT e.id FROM events e
        WHERE e.created_at < $cutoff
          AND NOT EXISTS (SELECT 1 FROM event_deliveries d WHERE d.event_id = e.id AND d.locked_until > $now)
        ORDER BY e.created_at
        LIMIT $batch
        FOR UPDATE OF e SKIP LOCKED`,
      { type: QueryTypes.SELECT, bind: { cutoff, now, batch: opts.batchSize }, transaction },
    );
    if (doomed.length === 0) return 0;
    const ids = doomed.map((row) => row.id);
    // The tasks are locked first, in a statement of their own: an attempt being recorded (a send,
    // a redelivery) commits before, and the deletion below, a later statement, sees its record.
    // One that comes after finds its task gone and records nothing.
    await sequelize.query(
      'SELECT id FROM event_deliveries WHERE event_id = ANY(CAST($ids AS text[])) ORDER BY id FOR UPDATE',
      { bind: { ids }, transaction },
    );
    await sequelize.query(
      `WITH tasks AS (SELECT id FROM event_deliveries WHERE event_id = ANY(CAST($ids AS text[]))),
            webhook_attempts AS (
              DELETE FROM webhook_deliveries WHERE delivery_id IN (SELECT id FROM tasks) RETURNING 1),
            messenger_attempts AS (
              DELETE FROM messenger_deliveries WHERE delivery_id IN (SELECT id FROM tasks) RETURNING 1),
            deleted_tasks AS (
              DELETE FROM event_deliveries WHERE id IN (SELECT id FROM tasks) RETURNING 1)
       DELETE FROM events WHERE id = ANY(CAST($ids AS text[]))`,
      { bind: { ids }, transaction },
    );
    if (ids.length === opts.batchSize) await wakeJob(sequelize, 'prune-events', transaction);
    return ids.length;
  });
}
