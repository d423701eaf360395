import { randomUUID } from 'node:crypto';
import cron, { type ScheduledTask } from 'node-cron';
import type { Deps } from '../deps';
import { listenForWakeUps } from '../db/wake-up';
import type { Job } from './job';

export type JobRunner = {
  workerId: string;
  /** Runs one job now (tests, and a nudge after work was queued). */
  runNow(name: string): Promise<number>;
  /** Stops scheduling and waits for runs in progress to finish. */
  stop(): Promise<void>;
};

/** Runs `jobs` (those config.jobs names) on their schedules and on wake-ups from any instance. */
export function startJobs(deps: Deps, jobs: Job[]): JobRunner {
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const inFlight = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  const log = deps.logger.child({ component: 'jobs', workerId });
  const cronLogger = {
    info: (m: string) => log.debug(m),
    warn: (m: string) => log.debug(m),
    error: (m: string | Error) => log.error({ err: m }, 'cron error'),
    debug: () => {},
  };

  const lanesOf = (job: Job): (string | undefined)[] => job.lanes?.(deps) ?? [undefined];
  const run = (job: Job, lane?: string, full = false) => {
    const p = job
      .run(deps, { workerId, lane, signal: stopping.signal, full })
      .then((n) => {
        deps.metrics.jobRuns.inc({ job: job.name, outcome: 'ok' });
        deps.metrics.jobItems.inc({ job: job.name }, n);
        if (n > 0) log.debug({ job: job.name, handled: n }, 'job batch done');
        return n;
      })
      .catch((err: unknown) => {
        deps.metrics.jobRuns.inc({ job: job.name, outcome: 'failed' });
        log.error({ err, job: job.name, lane }, 'job failed');
        return 0;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    return p;
  };

  // Scheduled runs and wake-ups share one run per job at a time; a wake-up during a run asks for
  // one more run right after it, so work committed meanwhile is not left to the next schedule.
  const running = new Map<string, Promise<unknown>>();
  const again = new Set<string>();
  const triggerLane = (job: Job, lane: string | undefined) => {
    if (stopped) return;
    const key = lane === undefined ? job.name : `${job.name}|${lane}`;
    if (running.has(key)) return void again.add(key);
    const p = run(job, lane).finally(() => {
      running.delete(key);
      if (again.delete(key)) triggerLane(job, lane);
    });
    running.set(key, p);
  };
  const trigger = (job: Job) => {
    for (const lane of lanesOf(job)) triggerLane(job, lane);
  };

  let stopped = false;
  const mine = jobs.filter((job) => deps.config.jobs.has(job.name));
  const tasks: ScheduledTask[] = mine.map((job) =>
    cron.schedule(job.schedule(deps.config), () => trigger(job), {
      name: `${job.name}-${workerId}`,
      noOverlap: true,
      logger: cronLogger,
    }),
  );
  const stopTriggers = mine.map((job) =>
    job.start?.(deps, (name, lane) => {
      const woken = mine.find((j) => j.name === name);
      if (woken) triggerLane(woken, lane);
    }),
  );
  const listener =
    mine.length > 0
      ? listenForWakeUps(
          deps.db,
          (name) => {
            const job = mine.find((j) => j.name === name);
            if (job) trigger(job);
          },
          log,
        )
      : null;

  return {
    workerId,
    runNow(name) {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw new Error(`unknown job ${name}`);
      return Promise.all(lanesOf(job).map((lane) => run(job, lane, true))).then((counts) =>
        counts.reduce((a, b) => a + b, 0),
      );
    },
    async stop() {
      stopped = true;
      stopping.abort();
      for (const stopTrigger of stopTriggers) stopTrigger?.();
      await listener?.stop();
      await Promise.all(tasks.map((t) => t.destroy()));
      await Promise.allSettled([...inFlight]);
    },
  };
}
