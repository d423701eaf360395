import { leaseDueRows } from '../db/lease';
import { JOB_RUN_MS, wakeJob, type JobRun } from '../db/wake-up';
import type { Deps } from '../deps';
import { createMailTransport } from './mail-transport';
import { recordEmailAttempt } from './record-email-attempt';
import { sendEmail } from './send-email';

/** E-mails sent at once by one run: mail servers throttle a sender that opens many connections. */
const SENDS_AT_ONCE = 4;

/**
 * The send-emails job's run: leases due e-mails (PENDING, or FAILED with their retry due) a few at
 * a time, FOR UPDATE SKIP LOCKED (server/db/lease.ts), so several instances send disjoint ones;
 * sends them and records each attempt. A lease covers one send (SMTP_TIMEOUT_MS) and its recording;
 * a worker that dies leaves its e-mails to be leased again when the lease runs out. Returns how
 * many attempts it recorded. Without SMTP_URL nothing is queued and it does nothing.
 */
export async function sendDueEmails(deps: Deps, opts: JobRun): Promise<number> {
  const mail = deps.config.mail;
  if (!mail) return 0;
  const timeoutMs = deps.config.SMTP_TIMEOUT_MS;
  const transport = createMailTransport(deps.config, mail.url);
  const started = performance.now();
  const runMs = opts.runMs ?? JOB_RUN_MS;
  const log = deps.logger.child({ component: 'send-emails', workerId: opts.workerId });
  let handled = 0;
  let idle = false;
  try {
    while (!opts.signal?.aborted && performance.now() - started < runMs) {
      const due = await leaseDueRows(deps, {
        table: 'email_deliveries',
        statuses: ['PENDING', 'FAILED'],
        limit: Math.min(opts.batchSize, SENDS_AT_ONCE),
        returning: ['id', 'to_address', 'subject', 'text', 'html'],
        owner: opts.workerId,
        seconds: (timeoutMs + deps.config.WEBHOOK_LEASE_GRACE_MS) / 1000,
      });
      if (due.length === 0) {
        idle = true;
        break;
      }
      await Promise.all(
        due.map(async (email) => {
          const outcome = await sendEmail(transport, { from: mail.from, timeoutMs }, email);
          if (await recordEmailAttempt(deps, { id: email.id, owner: opts.workerId, outcome })) handled++;
          if (!outcome.ok) log.warn({ emailId: email.id, error: outcome.error }, 'e-mail not sent');
        }),
      );
    }
  } finally {
    transport.close();
  }
  // Cut off by its time, not out of work: the next run starts at once, not at the next tick.
  if (!idle && !opts.signal?.aborted) await wakeJob(deps.db.sequelize, 'send-emails');
  return handled;
}
