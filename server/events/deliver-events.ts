import { JOB_RUN_MS, wakeJob, type JobRun } from '../db/wake-up';
import type { Deps } from '../deps';
import { DestinationLimits } from './destination-limits';
import { leaseDueDeliveries, leaseSeconds } from './lease-deliveries';
import { loadDeliveries } from './load-deliveries';
import { sendLeased } from './send-leased';

/** With sends in flight and nothing leased, how often to look again (new events, freed orders). */
const IDLE_POLL_MS = 100;

/**
 * The sender's loop, one bounded run of it: a rolling pool of at most `batchSize` tasks, each
 * leased (lease-deliveries.ts) before it is sent and recorded (send-leased.ts), so nothing is held
 * only in memory: a worker that dies loses its leases when they run out and another one sends them.
 * It keeps leasing while there is due work, until nothing is due and nothing is in flight, until
 * `signal` aborts (shutdown), or for `runMs` (30 s; then it wakes the next run at once); then it
 * waits for its sends in flight and returns how many it handled.
 *
 * At most WEBHOOK_CONCURRENCY_PER_DESTINATION requests to one destination (a channel and a
 * merchant) are in flight here at once, and leases are counted per destination across every worker
 * (destination-limits.ts): a slow or dead receiver holds that many of all the senders' pools, and
 * the other merchants' webhooks keep the rest. In the last WEBHOOK_TIMEOUT_MS of the run a slow
 * destination gets no new sends, so the run does not end waiting on one (holding everyone's next
 * run back). The lease keeps an order's events one at a time, in the order they were written.
 */
export async function deliverDueEvents(deps: Deps, opts: JobRun): Promise<number> {
  const { workerId: owner, batchSize, signal } = opts;
  const limits = new DestinationLimits(deps.config.WEBHOOK_CONCURRENCY_PER_DESTINATION);
  const started = performance.now();
  const runMs = opts.runMs ?? JOB_RUN_MS;
  const lastStretch = started + runMs - deps.config.WEBHOOK_TIMEOUT_MS;
  const log = deps.logger.child({ component: 'deliver-events', workerId: owner });
  const inFlight = new Set<Promise<void>>();
  let handled = 0;
  /** Tasks finished so far: one that finishes while a lease is asked for frees room for the next. */
  let finished = 0;
  let wake: (() => void) | null = null;

  const lease = async () => {
    const { cap, excluded } = limits.leaseLimits(performance.now() >= lastStretch);
    const rows = await leaseDueDeliveries(deps, {
      owner,
      seconds: leaseSeconds(deps),
      limit: batchSize - inFlight.size,
      perDestination: limits.perDestination,
      cap,
      excluded,
    });
    const deliveries = await loadDeliveries(
      deps,
      rows.map((r) => r.id),
    );
    for (const { id, destination } of rows) {
      const delivery = deliveries.get(String(id));
      limits.hold(destination);
      const p = (
        delivery ? sendLeased(deps, { delivery, destination, owner, limits }) : Promise.resolve(false)
      )
        .then((sent) => {
          if (sent) handled++;
        })
        // Not recorded (the database failed): the lease runs out and the task is sent again.
        .catch((err: unknown) => log.error({ err, deliveryId: id }, 'delivery not recorded'))
        .finally(() => {
          limits.release(destination);
          inFlight.delete(p);
          finished++;
          wake?.();
        });
      inFlight.add(p);
    }
    return rows.length;
  };

  let idle = false;
  try {
    while (!signal?.aborted && performance.now() - started < runMs) {
      const busy = inFlight.size;
      const finishedBefore = finished;
      const leased = batchSize - busy > 0 ? await lease() : 0;
      // Done only when nothing of this run's was in flight as it asked: tasks of its own it held
      // (whole destinations left out) may have finished while it asked, with more of theirs due.
      if (leased === 0 && busy === 0) {
        idle = true;
        break;
      }
      if (finished === finishedBefore && (leased === 0 || inFlight.size >= batchSize))
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, IDLE_POLL_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        }).finally(() => (wake = null));
    }
    // Cut off by its time, not out of work: the next run starts as soon as this one ends (in every
    // instance, as after new events), not at the next scheduled tick.
    if (!idle && !signal?.aborted) await wakeJob(deps.db.sequelize, 'deliver-events');
  } finally {
    await Promise.allSettled([...inFlight]);
  }
  return handled;
}
