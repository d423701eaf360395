import { leaseJobBatch } from '../db/lease';
import type { Deps } from '../deps';
import { billSubscription } from './bill-subscription';
import { BILLING_STATUSES } from './subscription-lifecycle';

/** Subscriptions billed side by side: each mostly waits on its statements. */
const CONCURRENCY = 8;

/**
 * One batch of the subscriptions due (`next_run_at` passed: an index read, never a scan), leased
 * as every job's work is (server/db/lease.ts: instances take disjoint batches; a stopped one's
 * come back when its lease runs out), then each billed, which gives its lease up. Returns how many.
 */
export async function billDueSubscriptions(
  deps: Deps,
  opts: { batchSize: number; workerId: string },
): Promise<number> {
  const due = await leaseJobBatch(
    deps,
    { batchSize: opts.batchSize, owner: opts.workerId },
    { table: 'subscriptions', statuses: BILLING_STATUSES, returning: ['id'] },
  );
  const ids = due.map((row) => row.id);
  const worker = async () => {
    for (let id = ids.shift(); id !== undefined; id = ids.shift())
      await billSubscription(deps, id, { leasedBy: opts.workerId }).catch((error: unknown) =>
        deps.logger.error(
          { err: error, subscription: id },
          'subscription billing failed: tried again after the lease',
        ),
      );
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return due.length;
}
