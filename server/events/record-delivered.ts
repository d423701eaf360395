import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';
import { appendAuditSql } from './audit';

/** A webhook that was answered 2xx, to be recorded (what recordAttempt records for one). */
export type Delivered = {
  id: string;
  url: string;
  requestBody: string;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
};

/**
 * Records delivered webhooks in one statement, as recordAttempt does one at a time: each task
 * DELIVERED (its attempt counted, its lease given up), its attempt in webhook_deliveries and, for an
 * event about an order, `webhook.delivered` in the order's audit. At line rate the sender records
 * its successes a few at a time this way: one round trip instead of seven each. Failures (which
 * reschedule or give up) keep recordAttempt.
 */
export async function recordDelivered(deps: Pick<Deps, 'db' | 'clock'>, items: Delivered[]): Promise<void> {
  if (items.length === 0) return;
  await deps.db.sequelize.query(
    `WITH input AS (
       SELECT * FROM json_to_recordset(CAST(:items AS json)) AS i(
         id bigint, url text, "requestBody" text, "responseStatus" int, "responseBody" text, "durationMs" int)),
     done AS (
       UPDATE event_deliveries d
          SET status = 'DELIVERED', attempts = d.attempts + 1, locked_until = NULL, locked_by = NULL,
              updated_at = :now
         FROM input i WHERE d.id = i.id
       RETURNING d.id, d.event_id, d.attempts),
     sent AS (
       SELECT done.id, done.attempts, e.id AS event_id, e.order_id, e.type, i.url, i."requestBody",
              i."responseStatus", i."responseBody", i."durationMs"
         FROM done JOIN input i ON i.id = done.id JOIN events e ON e.id = done.event_id),
     recorded AS (
       INSERT INTO webhook_deliveries (order_id, delivery_id, event_id, event_type, url, attempt, request_body,
                                       response_status, response_body, error, duration_ms, next_retry_at, created_at)
       SELECT order_id, id, event_id, type, url, attempts, "requestBody", "responseStatus", "responseBody", NULL,
              "durationMs", NULL, :now
         FROM sent
       RETURNING 1),
     audited AS (
       ${appendAuditSql(
         `SELECT order_id, 'webhook.delivered' AS type, 'system' AS actor,
                 jsonb_build_object('eventId', event_id, 'eventType', type, 'attempt', attempts,
                                    'responseStatus', "responseStatus") AS data,
                 CAST(:now AS timestamptz) AS at
            FROM sent WHERE order_id IS NOT NULL`,
       )}
       RETURNING 1)
     SELECT (SELECT count(*) FROM recorded) + (SELECT count(*) FROM audited) AS n`,
    {
      type: QueryTypes.SELECT,
      replacements: { items: JSON.stringify(items), now: deps.clock() },
    },
  );
}
