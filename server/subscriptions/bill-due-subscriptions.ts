import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';
import { billSubscription } from './bill-subscription';

/** How long a taken subscription is this worker's before another may take it (a stopped instance's). */
const LEASE_MS = 60_000;
/** Subscriptions billed side by side: each mostly waits on its statements. */
const CONCURRENCY = 8;

/**
 * One batch of the subscriptions due (`next_run_at` passed: an index read, never a scan), taken by
 * pushing their `next_run_at` a lease ahead (SKIP LOCKED: instances take different ones; one that
 * stops leaves them to be taken again after the lease), then each billed. Returns how many.
 */
export async function billDueSubscriptions(deps: Deps, opts: { batchSize: number }): Promise<number> {
  const now = deps.clock();
  const taken = await deps.db.sequelize.query<{ id: string }>(
    `UPDATE subscriptions SET next_run_at = :leasedUntil
      WHERE id IN (SELECT id FROM subscriptions WHERE next_run_at <= :now
                    ORDER BY next_run_at LIMIT :batch FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    {
      type: QueryTypes.SELECT,
      replacements: { now, leasedUntil: new Date(now.getTime() + LEASE_MS), batch: opts.batchSize },
    },
  );
  const ids = taken.map((row) => row.id);
  const worker = async () => {
    for (let id = ids.shift(); id !== undefined; id = ids.shift())
      await billSubscription(deps, id).catch((error: unknown) =>
        deps.logger.error(
          { err: error, subscription: id },
          'subscription billing failed: tried again after the lease',
        ),
      );
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return taken.length;
}
