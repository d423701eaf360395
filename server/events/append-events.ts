import type { Transaction } from 'sequelize';
import {
  API_VERSIONS,
  EVENT_FIELDS_SINCE,
  isApiVersion,
  LATEST_API_VERSION,
  type ApiVersion,
  type EventType,
} from '../../contract';
import type { Database } from '../db/database';
import { wakeJobSql } from '../db/wake-up';
import { randomBytesPooled } from '../lib/random-pool';

/** Where an event goes: a webhook URL or a messenger chat. */
export type DeliveryTarget = { channel: 'webhook' | 'messenger'; target: string };

/** An event as it is appended: plain data, its body already the payload its webhook carries. */
export type NewEvent = {
  id: string;
  /** Null for an event about no order (a test `ping`). */
  orderId: string | null;
  merchantId: string;
  type: EventType;
  body: string;
  at: Date;
  targets: DeliveryTarget[];
};

/** A new event's id. */
export const newEventId = () => `evt_${randomBytesPooled(16).toString('hex')}`;

/**
 * The version a merchant's events are rendered at: its pinned `webhook_api_version`, else (no
 * webhook secret yet, or a version this code does not know) the latest.
 */
export const eventApiVersion = (merchant: { webhookApiVersion: string | null }): ApiVersion =>
  isApiVersion(merchant.webhookApiVersion) ? merchant.webhookApiVersion : LATEST_API_VERSION;

/**
 * The stored (and delivered) body of an event, the webhook payload, rendered at `version`: the one
 * place an event body is built, so a version that renames or removes a field differs here. The
 * versions differ in the event types they know (contract/api-versions.ts), which the callers
 * check, and in the fields of `data` they know (EVENT_FIELDS_SINCE), which are left out here.
 */
export const eventBody = (
  id: string,
  type: EventType,
  at: Date,
  data: Record<string, unknown>,
  version: ApiVersion,
) =>
  JSON.stringify({ id, type, apiVersion: version, createdAt: at.toISOString(), data: dataAt(data, version) });

/** `data` without the fields introduced after `version` (the latest keeps everything, untouched). */
function dataAt(data: Record<string, unknown>, version: ApiVersion): Record<string, unknown> {
  const later = API_VERSIONS.filter((v) => v > version);
  if (later.length === 0) return data;
  const shaped = { ...data };
  for (const v of later)
    for (const [part, fields] of Object.entries(EVENT_FIELDS_SINCE[v])) {
      const value = shaped[part];
      if (!value || typeof value !== 'object') continue;
      const copy = { ...(value as Record<string, unknown>) };
      for (const field of fields) delete copy[field];
      shaped[part] = copy;
    }
  return shaped;
}

/**
 * The one way events are written, as common table expressions for a statement of the caller's:
 * the events `events` selects (columns id, order_id, merchant_id, type, body, at), a delivery task
 * for each row `targets` selects (event_id, channel, target) whose event was appended, and the
 * wake-up of every instance's senders when there is a task (delivered on commit). The statement's
 * final SELECT must include `woken` (a one-value expression): PostgreSQL runs an unreferenced
 * SELECT expression not at all. `targets` null: the caller knows there are none, and the statement
 * does not touch event_deliveries at all (each table a statement writes costs its start-up).
 */
export function appendEventsSql(events: string, targets: string | null): { ctes: string; woken: string } {
  const appended = `appended_events AS (
             INSERT INTO events (id, order_id, merchant_id, type, body, created_at)
             SELECT id, order_id, merchant_id, type, body, at FROM (${events}) AS new_event
             RETURNING id, created_at)`;
  if (targets === null) return { ctes: appended, woken: '0' };
  return {
    ctes: `${appended},
           appended_deliveries AS (
             INSERT INTO event_deliveries (event_id, channel, target, next_attempt_at, created_at, updated_at)
             SELECT t.event_id, t.channel, t.target, e.created_at, e.created_at, e.created_at
               FROM (${targets}) AS t JOIN appended_events e ON e.id = t.event_id
             RETURNING 1),
           woken_senders AS (SELECT ${wakeJobSql('deliver-events')} AS woken
                               WHERE EXISTS (SELECT 1 FROM appended_deliveries))`,
    woken: '(SELECT count(*) FROM woken_senders)',
  };
}

/**
 * The delivery tasks of one event (`eventId`, an SQL expression) for appendEventsSql: one per
 * target, the targets bound as two arrays, $deliveryChannel and $deliveryTarget.
 */
export const oneEventTargetsSql = (eventId: string) =>
  `SELECT ${eventId} AS event_id, channel, target
     FROM unnest(CAST($deliveryChannel AS text[]), CAST($deliveryTarget AS text[])) AS d(channel, target)`;

const APPEND_ONE = appendEventsSql(
  `SELECT CAST($id AS text) AS id, CAST($orderId AS bigint) AS order_id, CAST($merchantId AS uuid) AS merchant_id,
          CAST($type AS text) AS type, CAST($body AS text) AS body, CAST($at AS timestamptz) AS at`,
  oneEventTargetsSql('CAST($id AS text)'),
);
const APPEND_ONE_STATEMENT = `WITH ${APPEND_ONE.ctes} SELECT ${APPEND_ONE.woken} AS woken`;

/**
 * Appends one event and its delivery tasks inside the caller's transaction: the event exists
 * exactly when the change that caused it does.
 */
export async function appendEvent(
  db: Pick<Database, 'sequelize'>,
  transaction: Transaction,
  event: NewEvent,
) {
  await db.sequelize.query(APPEND_ONE_STATEMENT, {
    bind: {
      id: event.id,
      orderId: event.orderId,
      merchantId: event.merchantId,
      type: event.type,
      body: event.body,
      at: event.at,
      deliveryChannel: event.targets.map((t) => t.channel),
      deliveryTarget: event.targets.map((t) => t.target),
    },
    transaction,
  });
}
