import { runSql } from './run-sql';

/**
 * The dashboard's figures, kept per merchant and hour so that a 30-day overview reads at most
 * 720 hours × its networks and tokens, whatever the number of orders (server/dashboard/summarize.ts).
 *
 * Nothing on the request path computes them. A statement that creates orders, changes their
 * status or credits a payment appends the (merchant, hour) pairs it touched to stats_changes
 * (one statement-level trigger run, an append-only INSERT: no row lock for concurrent creations
 * to queue on). The refresh-dashboard-stats job takes the changes it can see, recomputes those
 * hours from orders and payment_claims in the same snapshot and deletes exactly what it took: a
 * change committed later is taken by a later run, after which its hour is recomputed again.
 */
export const up = runSql(`
    CREATE TABLE stats_changes (
      merchant_id uuid NOT NULL,
      hour timestamptz NOT NULL
    );

    -- Orders created in the hour, by their status now.
    CREATE TABLE order_stats_hourly (
      merchant_id uuid NOT NULL,
      hour timestamptz NOT NULL,
      network text NOT NULL,
      token text NOT NULL,
      created integer NOT NULL,
      pending integer NOT NULL,
      confirming integer NOT NULL,
      paid integer NOT NULL,
      underpaid integer NOT NULL,
      expired integer NOT NULL,
      PRIMARY KEY (merchant_id, hour, network, token)
    );

    -- Verified payments recorded in the hour; fiat at each order's own quote rate ('' without a quote).
    CREATE TABLE payment_stats_hourly (
      merchant_id uuid NOT NULL,
      hour timestamptz NOT NULL,
      network text NOT NULL,
      token text NOT NULL,
      quote_currency text NOT NULL,
      received_units numeric NOT NULL,
      received_fiat numeric NOT NULL,
      PRIMARY KEY (merchant_id, hour, network, token, quote_currency)
    );

    CREATE INDEX payment_claims_created_idx ON payment_claims (created_at) WHERE status = 'VERIFIED';
    CREATE INDEX orders_merchant_created_idx ON orders (merchant_id, created_at);

    CREATE FUNCTION note_order_stats_changes() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO stats_changes (merchant_id, hour)
        SELECT DISTINCT merchant_id, date_trunc('hour', created_at) FROM new_rows;
      ELSE
        INSERT INTO stats_changes (merchant_id, hour)
        SELECT DISTINCT n.merchant_id, date_trunc('hour', n.created_at)
          FROM new_rows n JOIN old_rows o ON o.id = n.id
         WHERE n.status IS DISTINCT FROM o.status;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER orders_stats_inserted AFTER INSERT ON orders
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_order_stats_changes();
    CREATE TRIGGER orders_stats_updated AFTER UPDATE ON orders
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION note_order_stats_changes();

    CREATE FUNCTION note_payment_stats_changes() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO stats_changes (merchant_id, hour)
      SELECT DISTINCT o.merchant_id, date_trunc('hour', n.created_at)
        FROM new_rows n JOIN orders o ON o.id = n.order_id
       WHERE n.status = 'VERIFIED';
      RETURN NULL;
    END $$;
    CREATE TRIGGER payment_claims_stats_inserted AFTER INSERT ON payment_claims
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_payment_stats_changes();
    CREATE TRIGGER payment_claims_stats_updated AFTER UPDATE ON payment_claims
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_payment_stats_changes();

    -- What exists already: every hour with orders or payments, to be computed by the first runs.
    INSERT INTO stats_changes (merchant_id, hour)
    SELECT merchant_id, date_trunc('hour', created_at) FROM orders
     UNION
    SELECT o.merchant_id, date_trunc('hour', pc.created_at)
      FROM payment_claims pc JOIN orders o ON o.id = pc.order_id WHERE pc.status = 'VERIFIED';
  `);

export const down = runSql(`
    DROP TRIGGER payment_claims_stats_updated ON payment_claims;
    DROP TRIGGER payment_claims_stats_inserted ON payment_claims;
    DROP FUNCTION note_payment_stats_changes();
    DROP TRIGGER orders_stats_updated ON orders;
    DROP TRIGGER orders_stats_inserted ON orders;
    DROP FUNCTION note_order_stats_changes();
    DROP INDEX orders_merchant_created_idx;
    DROP INDEX payment_claims_created_idx;
    DROP TABLE payment_stats_hourly, order_stats_hourly, stats_changes;
  `);
