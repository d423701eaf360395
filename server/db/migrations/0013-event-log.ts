import { runSql } from './run-sql';

/**
 * The events API (GET /events) and its retention (the prune-events job).
 *
 * - events_merchant_keyset_idx: a merchant's events in keyset order (created_at, id); read backward it
 *   gives the newest-first pages, forward the "newer than" catch-up pages, each an index range.
 * - events_merchant_type_idx: the same per type, so a page filtered by a rare type does not walk all
 *   the merchant's other events to fill itself.
 * - events_created_idx: the oldest events first, for the retention job.
 * - webhook_deliveries / messenger_deliveries (delivery_id): an attempt record points at its
 *   delivery task; deleting a task checks that no record points at it, which without these indexes
 *   is a scan of all attempts per deleted task.
 */
export const up = runSql(`
    CREATE INDEX events_merchant_keyset_idx ON events (merchant_id, created_at, id);
    CREATE INDEX events_merchant_type_idx ON events (merchant_id, type, created_at, id);
    CREATE INDEX events_created_idx ON events (created_at);
    CREATE INDEX webhook_deliveries_delivery_idx ON webhook_deliveries (delivery_id);
    CREATE INDEX messenger_deliveries_delivery_idx ON messenger_deliveries (delivery_id);
  `);

export const down = runSql(`
    DROP INDEX messenger_deliveries_delivery_idx;
    DROP INDEX webhook_deliveries_delivery_idx;
    DROP INDEX events_created_idx;
    DROP INDEX events_merchant_type_idx;
    DROP INDEX events_merchant_keyset_idx;
  `);
