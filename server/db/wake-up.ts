import type { Sequelize, Transaction } from 'sequelize';
import { JOB_NAMES, type JobName } from '../lib/job-names';
import type { Logger } from '../lib/logger';
import type { Database } from './database';
import { listen, type Listener } from './listen';

/**
 * Work committed in one instance wakes the job that handles it in every instance at once
 * (PostgreSQL LISTEN/NOTIFY), instead of waiting for the next scheduled run. A notification sent
 * inside a transaction is delivered when it commits, and not at all if it rolls back.
 */
export const WAKE_CHANNEL = 'stablepay_jobs';

/** The SQL expression that wakes `job` (a name from JOB_NAMES, never input). */
export const wakeJobSql = (job: JobName) => `pg_notify('${WAKE_CHANNEL}', '${job}')`;

/** Wakes `job` everywhere: when `transaction` commits, or at once without one. */
export async function wakeJob(sequelize: Sequelize, job: JobName, transaction?: Transaction) {
  await sequelize.query(`SELECT ${wakeJobSql(job)}`, { transaction });
}

/** Every instance's wake-up listener; the schedule still runs while it reconnects. */
export function listenForWakeUps(
  db: Pick<Database, 'url' | 'limits'>,
  onWake: (job: JobName) => void,
  logger: Logger,
): Listener {
  return listen({
    url: db.url,
    limits: db.limits,
    channel: WAKE_CHANNEL,
    onMessage: (payload) => {
      const job = JOB_NAMES.find((name) => name === payload);
      if (job) onWake(job);
    },
    log: logger,
    what: 'job wake-up listener',
  });
}

/** A leasing job's run (deliver-events, send-emails): who leases, how much at once, for how long. */
export type JobRun = { workerId: string; batchSize: number; runMs?: number; signal?: AbortSignal };

/** How long one run of a leasing job keeps leasing; the schedule and wake-ups start the next. */
export const JOB_RUN_MS = 30_000;
