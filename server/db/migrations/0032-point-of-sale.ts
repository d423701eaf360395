import type { Migration } from '../migrate';

/**
 * The point of sale (issue 38). Orders say where they came from (`source`: `api`, `dashboard`,
 * `pos`, `subscription`; orders made before are `api`, or `subscription` when they bill a period)
 * and who made them (`created_by_member` and its e-mail then, `created_by_key`; null for the system). The
 * account keeps the currency its counter sells in (`currency`: BRL, EUR or a token; null: the
 * first token) and the tips it offers (`tip_percentages`, e.g. {10,15,20}; empty: none).
 * The day's sales by cashier read orders by (merchant, member, created_at).
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(`
    ALTER TABLE orders
      ADD COLUMN source text NOT NULL DEFAULT 'api'
        CHECK (source IN ('api', 'dashboard', 'pos', 'subscription')),
      ADD COLUMN created_by_member uuid REFERENCES members(id),
      ADD COLUMN created_by_email text,
      ADD COLUMN created_by_key uuid;
    UPDATE orders SET source = 'subscription' WHERE subscription_id IS NOT NULL;
    CREATE INDEX orders_by_member ON orders (merchant_id, created_by_member, created_at)
      WHERE created_by_member IS NOT NULL;
    ALTER TABLE merchants
      ADD COLUMN currency text,
      ADD COLUMN tip_percentages smallint[] NOT NULL DEFAULT '{}';
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`
    ALTER TABLE merchants DROP COLUMN tip_percentages, DROP COLUMN currency;
    DROP INDEX orders_by_member;
    ALTER TABLE orders DROP COLUMN created_by_key, DROP COLUMN created_by_email, DROP COLUMN created_by_member, DROP COLUMN source;
  `);
};
