import { runSql } from './run-sql';

/**
 * Versioned event payloads and test deliveries.
 *
 * - merchants.webhook_api_version: the version events are rendered at (contract/api-versions.ts),
 *   pinned when the first webhook secret is created. Merchants that already have a secret receive
 *   webhooks today, so they are pinned to the payload as it was before versions existed
 *   (2025-01-01); the others stay unpinned (null: the latest) until their first secret.
 * - A test delivery (`ping`) is an event about no order, recorded like any delivery: events,
 *   webhook_deliveries and messenger_deliveries may have no order.
 */
export const up = runSql(`
    ALTER TABLE merchants ADD COLUMN webhook_api_version text
      CHECK (webhook_api_version ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$');
    UPDATE merchants SET webhook_api_version = '2025-01-01' WHERE webhook_secret_sealed IS NOT NULL;
    -- Events written before versions existed are 2025-01-01 payloads: they say so from now on (their
    -- retries, redeliveries and GET /events carry it), with the key where eventBody writes it.
    UPDATE events SET body = regexp_replace(body, '^(\\{"id":"[^"]*","type":"[^"]*",)', '\\1"apiVersion":"2025-01-01",')
     WHERE body NOT LIKE '%"apiVersion":%';

    ALTER TABLE events ALTER COLUMN order_id DROP NOT NULL;
    ALTER TABLE webhook_deliveries ALTER COLUMN order_id DROP NOT NULL;
    ALTER TABLE messenger_deliveries ALTER COLUMN order_id DROP NOT NULL;
  `);

export const down = runSql(`
    DELETE FROM webhook_deliveries WHERE order_id IS NULL;
    DELETE FROM messenger_deliveries WHERE order_id IS NULL;
    DELETE FROM event_deliveries WHERE event_id IN (SELECT id FROM events WHERE order_id IS NULL);
    DELETE FROM events WHERE order_id IS NULL;
    ALTER TABLE messenger_deliveries ALTER COLUMN order_id SET NOT NULL;
    ALTER TABLE webhook_deliveries ALTER COLUMN order_id SET NOT NULL;
    ALTER TABLE events ALTER COLUMN order_id SET NOT NULL;
    ALTER TABLE merchants DROP COLUMN webhook_api_version;
  `);
