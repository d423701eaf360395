import type { Deps } from '../deps';
import { lastAttemptSql, retryDelayMsSql, retrySchedule } from '../events/retry-schedule';
import type { EmailOutcome } from './send-email';

/**
 * Records one attempt and moves the e-mail on, on the webhooks' schedule (retry-schedule.ts): SENT;
 * FAILED with its next attempt due; or GAVE_UP after the last attempt. Lands only while `owner`
 * still holds the lease: a sender that overran it leaves the e-mail to the one that took it over.
 * Returns whether it wrote.
 */
export async function recordEmailAttempt(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  attempt: { id: string; owner: string; outcome: EmailOutcome },
): Promise<boolean> {
  const { ok, error } = attempt.outcome;
  const [rows] = await deps.db.sequelize.query(
    `UPDATE email_deliveries
        SET attempt = attempt + 1,
            status = CASE WHEN CAST($ok AS boolean) THEN 'SENT'
                          WHEN ${lastAttemptSql('attempt + 1')} THEN 'GAVE_UP' ELSE 'FAILED' END,
            error = CAST($error AS text),
            next_attempt_at = CASE WHEN CAST($ok AS boolean) OR ${lastAttemptSql('attempt + 1')} THEN next_attempt_at
                                   ELSE CAST($now AS timestamptz)
                                        + ${retryDelayMsSql('attempt + 1')} * interval '1 millisecond' END,
            locked_by = NULL, locked_until = NULL, updated_at = CAST($now AS timestamptz)
      WHERE id = $id AND locked_by = $owner
      RETURNING 1`,
    {
      bind: {
        id: attempt.id,
        owner: attempt.owner,
        ok,
        error,
        now: deps.clock(),
        ...retrySchedule(deps.config),
      },
    },
  );
  return (rows as unknown[]).length > 0;
}
