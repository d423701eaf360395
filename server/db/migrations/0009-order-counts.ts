import { countOrders } from './count-orders';
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

    ${countOrders('CREATE', 'floor(random() * 8)::smallint')}

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
