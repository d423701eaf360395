import type { DeliveryChannel } from '../db/models/event-delivery';
import type { Deps } from '../deps';
import { auditActor, type Caller } from './actor';
import { appendAuditSql } from './audit';
import type { Outcome } from './delivery';
import { lastAttemptSql, retryDelayMsSql, retrySchedule, type RetryConfig } from './retry-schedule';

/** An attempt to record: a task's outcome, and who sent it. */
export type Attempt = Outcome & {
  /** The task (event_deliveries.id). */
  taskId: string;
  /** The worker whose lease the send was under; a worker that lost it no longer decides the schedule. */
  owner?: string;
  /** A redelivery asked for by the merchant: recorded, the schedule left alone. */
  manual?: boolean;
  /** Who asked for the redelivery: its audit entry names them (else the service, `system`). */
  by?: Caller;
};

/** The record an attempt made (webhook_deliveries or messenger_deliveries), or null: held, or no such task. */
export type RecordedAttempt = { channel: DeliveryChannel; recordId: string } | null;

/** How often a held delivery (no signing secret yet) is looked at again. */
const HOLD_RECHECK_MS = 30_000;

/**
 * Records attempts and moves their tasks on, each as recordAttempt always did, in one statement for
 * all of them (no two of one task):
 *
 * - held (`deferred`): looked at again later; nothing recorded, no attempt spent;
 * - delivered: DELIVERED, its lease given up;
 * - failed: retried on the outboxes' schedule (retry-schedule.ts; or the receiver's retry hint, when
 *   longer), or FAILED when `permanent` or after the last attempt. A manual attempt never
 *   reschedules, and neither does a worker whose lease was taken over (its attempt is still recorded).
 *
 * Each attempt gets its row in webhook_deliveries or messenger_deliveries and, for an event about an
 * order, `<channel>.delivered`, `.failed` or `.gave_up` in the order's audit. The tasks are locked
 * first, in id order, so the decisions read what the last writer left.
 */
export async function recordAttempts(
  deps: Pick<Deps, 'db' | 'clock'> & {
    config: RetryConfig;
  },
  attempts: Attempt[],
): Promise<RecordedAttempt[]> {
  const now = deps.clock();
  // PostgreSQL text holds no NUL: a receiver that answers one must not make its attempt unrecordable.
  const text = (s: string | null) => (s === null ? null : s.replaceAll('\0', ''));
  const items = attempts.map(({ by, ...a }, seq) => {
    const who = by ? auditActor(by) : null;
    return {
      seq,
      byActor: who?.actor ?? null,
      byFields: who?.fields ?? null,
      taskId: a.taskId,
      owner: a.owner ?? null,
      manual: a.manual === true,
      deferred: a.deferred === true,
      ok: a.ok,
      permanent: a.permanent === true,
      responseStatus: a.status,
      responseBody: text(a.body),
      error: text(a.error),
      durationMs: a.durationMs,
      retryAfterMs: Math.ceil((a.retryAfterSeconds ?? 0) * 1000),
      sentTo: text(a.target ?? null),
      requestBody: text(a.requestBody),
    };
  });
  const rows = await deps.db.prepared.run<{
    seq: number;
    webhookId: string | null;
    messengerId: string | null;
  }>(
    `WITH input AS (
       SELECT * FROM json_to_recordset(CAST($items AS json)) AS i(
         seq int, "byActor" text, "byFields" jsonb, "taskId" bigint, owner text, manual boolean, deferred boolean, ok boolean, permanent boolean,
         "responseStatus" int, "responseBody" text, error text, "durationMs" int, "retryAfterMs" bigint,
         "sentTo" text, "requestBody" text)),
     locked AS (
       SELECT d.id, d.status, d.attempts, d.locked_by, d.channel, d.target,
              e.id AS event_id, e.order_id, e.type AS event_type
         FROM event_deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.id IN (SELECT "taskId" FROM input)
        ORDER BY d.id
          FOR UPDATE OF d),
     judged AS (
       SELECT l.id, l.channel, l.event_id, l.order_id, l.event_type, l.status, l.attempts + 1 AS attempt,
              COALESCE(i."sentTo", l.target) AS sent_to, i.manual, i.deferred, i.ok, i."responseStatus",
              i."responseBody", CASE WHEN i.ok THEN NULL ELSE i.error END AS error, i."durationMs",
              i."retryAfterMs", i."requestBody", i."byActor", i."byFields",
              -- A worker that overran its lease no longer decides the schedule: the new holder does.
              i.manual OR COALESCE(l.locked_by = i.owner, false) AS holds,
              NOT i.deferred AND NOT i.ok AND NOT i.manual AND COALESCE(l.locked_by = i.owner, false)
                AND l.status = 'PENDING' AS reschedules,
              i.permanent OR ${lastAttemptSql('l.attempts + 1')} AS last
         FROM input i JOIN locked l ON l.id = i."taskId"),
     decided AS (
       SELECT *,
              CASE WHEN deferred THEN status WHEN ok THEN 'DELIVERED' WHEN reschedules AND last THEN 'FAILED'
                   ELSE status END AS new_status,
              CASE WHEN reschedules AND NOT last
                   THEN CAST($now AS timestamptz)
                        + greatest(${retryDelayMsSql('attempt')}, "retryAfterMs") * interval '1 millisecond'
              END AS next_retry_at
         FROM judged),
     moved AS (
       UPDATE event_deliveries d
          SET status = decided.new_status,
              attempts = CASE WHEN decided.deferred THEN d.attempts ELSE decided.attempt END,
              next_attempt_at = CASE WHEN decided.deferred
                                     THEN CAST($now AS timestamptz) + CAST($holdMs AS float8) * interval '1 millisecond'
                                     ELSE COALESCE(decided.next_retry_at, d.next_attempt_at) END,
              locked_until = CASE WHEN decided.deferred OR decided.holds OR decided.ok THEN NULL
                                  ELSE d.locked_until END,
              locked_by = CASE WHEN decided.deferred OR decided.holds OR decided.ok THEN NULL ELSE d.locked_by END,
              updated_at = CAST($now AS timestamptz)
         FROM decided WHERE d.id = decided.id
       RETURNING d.id),
     attempted AS (SELECT * FROM decided WHERE NOT deferred),
     webhooks AS (
       INSERT INTO webhook_deliveries (order_id, delivery_id, event_id, event_type, url, attempt, request_body,
                                       response_status, response_body, error, duration_ms, next_retry_at, created_at)
       SELECT order_id, id, event_id, event_type, sent_to, attempt, "requestBody", "responseStatus", "responseBody",
              error, "durationMs", next_retry_at, CAST($now AS timestamptz)
         FROM attempted WHERE channel = 'webhook'
       RETURNING id, delivery_id),
     messages AS (
       INSERT INTO messenger_deliveries (order_id, delivery_id, event_type, chat_id, text, status, response_status,
                                         response_body, error, attempt, duration_ms, created_at)
       SELECT order_id, id, event_type, sent_to, "requestBody", CASE WHEN ok THEN 'SENT' ELSE 'FAILED' END,
              "responseStatus", "responseBody", error, attempt, "durationMs", CAST($now AS timestamptz)
         FROM attempted WHERE channel = 'messenger'
       RETURNING id, delivery_id),
     audited AS (
       ${appendAuditSql(
         `SELECT order_id,
                 channel || CASE WHEN ok THEN '.delivered' WHEN new_status = 'FAILED' THEN '.gave_up' ELSE '.failed' END
                   AS type,
                 COALESCE("byActor", 'system') AS actor,
                 jsonb_build_object('eventId', event_id, 'eventType', event_type, 'attempt', attempt,
                                    'responseStatus', "responseStatus")
                   || COALESCE("byFields", '{}')
                   || CASE WHEN manual THEN jsonb_build_object('manual', true) ELSE '{}' END
                   || CASE WHEN ok THEN '{}' ELSE jsonb_build_object('error', error) END
                   || CASE WHEN next_retry_at IS NULL THEN '{}'
                      ELSE jsonb_build_object('nextRetryAt',
                             to_char(next_retry_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END
                   AS data,
                 CAST($now AS timestamptz) AS at
            FROM attempted WHERE order_id IS NOT NULL`,
       )}
       RETURNING 1)
     SELECT i.seq, w.id AS "webhookId", m.id AS "messengerId"
       FROM input i
       LEFT JOIN webhooks w ON w.delivery_id = i."taskId"
       LEFT JOIN messages m ON m.delivery_id = i."taskId"
      ORDER BY i.seq`,
    {
      items: JSON.stringify(items),
      now,
      ...retrySchedule(deps.config),
      holdMs: Math.min(deps.config.WEBHOOK_RETRY_BASE_MS, HOLD_RECHECK_MS),
    },
  );
  return rows.map((row): RecordedAttempt => {
    if (row.webhookId !== null) return { channel: 'webhook', recordId: String(row.webhookId) };
    if (row.messengerId !== null) return { channel: 'messenger', recordId: String(row.messengerId) };
    return null;
  });
}
