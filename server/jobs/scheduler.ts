import { randomUUID } from 'node:crypto';
import cron, { type ScheduledTask } from 'node-cron';
import type { Deps } from '../deps';
import { deliverEventsJob } from './deliver-events.job';
import { expireOrdersJob } from './expire-orders.job';
import type { Job } from './job';
import { scanPaymentsJob } from './scan-payments.job';
import { verifyPaymentsJob } from './verify-payments.job';

export const JOBS: Job[] = [deliverEventsJob, expireOrdersJob, verifyPaymentsJob, scanPaymentsJob];

export type JobRunner = {
  workerId: string;
  /** Runs one job now (tests, and a nudge after work was queued). */
  runNow(name: string): Promise<number>;
  /** Stops scheduling and waits for runs in progress to finish. */
  stop(): Promise<void>;
};

export function startJobs(deps: Deps, jobs: Job[] = JOBS): JobRunner {
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const inFlight = new Set<Promise<unknown>>();
  const log = deps.logger.child({ component: 'jobs', workerId });
  const cronLogger = {
    info: (m: string) => log.debug(m),
    warn: (m: string) => log.debug(m),
    error: (m: string | Error) => log.error({ err: m }, 'cron error'),
    debug: () => {},
  };

  const run = (job: Job) => {
    const p = job
      .run(deps, { workerId })
      .then((n) => {
        deps.metrics.jobRuns.inc({ job: job.name, outcome: 'ok' });
        deps.metrics.jobItems.inc({ job: job.name }, n);
        if (n > 0) log.debug({ job: job.name, handled: n }, 'job batch done');
        return n;
      })
      .catch((err: unknown) => {
        deps.metrics.jobRuns.inc({ job: job.name, outcome: 'failed' });
        log.error({ err, job: job.name }, 'job failed');
        return 0;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    return p;
  };

  let stopped = false;
  const tasks: ScheduledTask[] = deps.config.jobsEnabled
    ? jobs.map((job) =>
        cron.schedule(job.schedule(deps.config), () => (stopped ? undefined : run(job)), {
          name: `${job.name}-${workerId}`,
          noOverlap: true,
          logger: cronLogger,
        }),
      )
    : [];

  return {
    workerId,
    runNow(name) {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw new Error(`unknown job ${name}`);
      return run(job);
    },
    async stop() {
      stopped = true;
      await Promise.all(tasks.map((t) => t.destroy()));
      await Promise.allSettled([...inFlight]);
    },
  };
}
