import { runSql } from './run-sql';

/**
 * `total` in page mode without counting rows: a trigger keeps per-merchant counts by network and
 * status (spread over 8 shards, so concurrent creations for one merchant do not queue on one row),
 * and a page's total is the sum of a few of them, whatever the number of orders.
 */
export const up = runSql(`
    CREATE TABLE order_counts (
      merchant_id uuid NOT NULL,
      network text NOT NULL,
      status text NOT NULL,
      shard smallint NOT NULL,
      n bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (merchant_id, network, status, shard)
    );

    CREATE FUNCTION count_orders() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      s smallint := floor(random() * 8)::smallint;
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF NEW.status IS NOT DISTINCT FROM OLD.status AND NEW.network = OLD.network THEN RETURN NULL; END IF;
        UPDATE order_counts SET n = n - 1
         WHERE (merchant_id, network, status, shard) =
               (SELECT merchant_id, network, status, shard FROM order_counts
                 WHERE merchant_id = OLD.merchant_id AND network = OLD.network AND status = OLD.status AND n > 0
                 LIMIT 1);
      END IF;
      INSERT INTO order_counts AS c (merchant_id, network, status, shard, n)
      VALUES (NEW.merchant_id, NEW.network, NEW.status, s, 1)
      ON CONFLICT (merchant_id, network, status, shard) DO UPDATE SET n = c.n + 1;
      RETURN NULL;
    END $$;

    CREATE TRIGGER orders_counted AFTER INSERT OR UPDATE OF status, network ON orders
      FOR EACH ROW EXECUTE FUNCTION count_orders();

    INSERT INTO order_counts (merchant_id, network, status, shard, n)
      SELECT merchant_id, network, status, 0, count(*) FROM orders GROUP BY merchant_id, network, status;
  `);

export const down = runSql(`
    DROP TRIGGER orders_counted ON orders;
    DROP FUNCTION count_orders();
    DROP TABLE order_counts;
  `);
