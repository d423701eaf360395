import { runSql } from './run-sql';

/**
 * The point of sale (issue 38). Orders say where they came from (`source`: `api`, `dashboard`,
 * `pos`, `subscription`; orders made before are `api`, or `subscription` when they bill a period)
 * (who made them is `created_by`, migration 0030). The account keeps the currency its counter sells in (`currency`: BRL, EUR or a token; null: the
 * first token) and the tips it offers (`tip_percentages`, e.g. {10,15,20}; empty: none).
 */
export const up = runSql(`
    ALTER TABLE orders
      ADD COLUMN source text NOT NULL DEFAULT 'api'
        CHECK (source IN ('api', 'dashboard', 'pos', 'subscription'));
    UPDATE orders SET source = 'subscription' WHERE subscription_id IS NOT NULL;
    ALTER TABLE merchants
      ADD COLUMN currency text,
      ADD COLUMN tip_percentages smallint[] NOT NULL DEFAULT '{}';
  `);

export const down = runSql(`
    ALTER TABLE merchants DROP COLUMN tip_percentages, DROP COLUMN currency;
    ALTER TABLE orders DROP COLUMN source;
  `);
