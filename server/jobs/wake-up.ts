import pg from 'pg';
import type { Sequelize, Transaction } from 'sequelize';
import type { Logger } from '../lib/logger';
import { JOB_NAMES, type JobName } from './job-names';

/**
 * Work committed in one instance wakes the job that handles it in every instance at once
 * (PostgreSQL LISTEN/NOTIFY), instead of waiting for the next scheduled run. A notification sent
 * inside a transaction is delivered when it commits, and not at all if it rolls back.
 */
export const WAKE_CHANNEL = 'stablepay_jobs';

export async function wakeJob(sequelize: Sequelize, transaction: Transaction, job: JobName) {
  await sequelize.query('SELECT pg_notify(:channel, :job)', {
    replacements: { channel: WAKE_CHANNEL, job },
    transaction,
  });
}

/** Listens on a connection of its own, reconnecting after a loss; the schedule still runs meanwhile. */
export function listenForWakeUps(url: string, onWake: (job: JobName) => void, logger: Logger) {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      const job = JOB_NAMES.find((name) => name === message.payload);
      if (job) onWake(job);
    });
    next.on('error', (err) => {
      logger.warn({ err: err.message }, 'job wake-up listener lost its connection');
      void next.end().catch(() => {});
      if (client === next) client = null;
      schedule();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${WAKE_CHANNEL}`);
      if (stopped) return void next.end().catch(() => {});
      client = next;
    } catch (err) {
      void next.end().catch(() => {});
      logger.warn({ err: (err as Error).message }, 'job wake-up listener cannot connect; retrying');
      schedule();
    }
  };
  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, 2000);
    retry.unref();
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
