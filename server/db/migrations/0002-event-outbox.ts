import { runSql } from './run-sql';
import { createdAt, identityKey, merchantRef, orderRef, timestamps } from './columns';

/**
 * The transactional outbox: an event row and one delivery task per channel are written in the same
 * transaction as the order change. Workers lease due tasks (FOR UPDATE SKIP LOCKED), send, and
 * record each attempt, so nothing is lost on a crash and several instances never send one attempt twice.
 */
export const up = runSql(`
    CREATE TABLE events (
      id text PRIMARY KEY,
      ${orderRef},
      ${merchantRef},
      type text NOT NULL,
      body text NOT NULL,
      ${createdAt}
    );
    CREATE INDEX events_order_idx ON events (order_id, created_at);

    CREATE TABLE event_deliveries (
      ${identityKey},
      event_id text NOT NULL REFERENCES events(id),
      channel text NOT NULL CHECK (channel IN ('webhook', 'messenger')),
      target text NOT NULL,
      status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      locked_until timestamptz,
      locked_by text,
      ${timestamps}
    );
    CREATE INDEX event_deliveries_due_idx ON event_deliveries (next_attempt_at) WHERE status = 'PENDING';
    CREATE INDEX event_deliveries_event_idx ON event_deliveries (event_id);

    ALTER TABLE webhook_deliveries ADD COLUMN delivery_id bigint REFERENCES event_deliveries(id);
    ALTER TABLE messenger_deliveries ADD COLUMN delivery_id bigint REFERENCES event_deliveries(id);
  `);

export const down = runSql(`
    ALTER TABLE messenger_deliveries DROP COLUMN delivery_id;
    ALTER TABLE webhook_deliveries DROP COLUMN delivery_id;
    DROP TABLE event_deliveries, events;
  `);
