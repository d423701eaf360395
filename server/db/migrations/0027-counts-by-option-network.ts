import { runSql } from './run-sql';

/**
 * The list's kept counts (migration 0009) for orders with several payment options: each such order
 * is counted once more under each network of its options that is not its first network, so that
 * a page's total filtered by network counts every order on that network (orderOnNetworkSql in
 * server/orders/payment-options.ts) while the first network's counts still count each order once.
 * Sharded as migration 0011's. One-option orders never run the function (the triggers' WHEN):
 * their creation costs what it did. An order's options never change after creation; its status
 * does.
 */
export const up = runSql(`
    -- The same columns and key as order_counts: (merchant_id, network, status, shard) -> n.
    CREATE TABLE order_option_counts (LIKE order_counts INCLUDING ALL);

    CREATE FUNCTION count_order_options() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      s smallint := (pg_backend_pid() % 64)::smallint;
      other text;
    BEGIN
      -- In network order, so that two statements take the rows' locks in the same order.
      FOR other IN SELECT DISTINCT opt->>'network' FROM jsonb_array_elements(NEW.payment_options) AS opt
                    WHERE opt->>'network' <> NEW.network ORDER BY 1 LOOP
        IF TG_OP = 'UPDATE' THEN
          UPDATE order_option_counts SET n = n - 1
           WHERE (merchant_id, network, status, shard) =
                 (SELECT merchant_id, network, status, shard FROM order_option_counts
                   WHERE merchant_id = OLD.merchant_id AND network = other AND status = OLD.status AND n > 0
                   ORDER BY shard = s DESC
                   LIMIT 1);
        END IF;
        INSERT INTO order_option_counts AS c (merchant_id, network, status, shard, n)
        VALUES (NEW.merchant_id, other, NEW.status, s, 1)
        ON CONFLICT (merchant_id, network, status, shard) DO UPDATE SET n = c.n + 1;
      END LOOP;
      RETURN NULL;
    END $$;

    CREATE TRIGGER orders_option_counted AFTER INSERT ON orders
      FOR EACH ROW WHEN (NEW.payment_options IS NOT NULL) EXECUTE FUNCTION count_order_options();
    CREATE TRIGGER orders_option_recounted AFTER UPDATE OF status ON orders
      FOR EACH ROW WHEN (NEW.payment_options IS NOT NULL AND NEW.status IS DISTINCT FROM OLD.status)
      EXECUTE FUNCTION count_order_options();

    INSERT INTO order_option_counts (merchant_id, network, status, shard, n)
      SELECT o.merchant_id, other.network, o.status, 0, count(*)
        FROM orders o
       CROSS JOIN LATERAL (SELECT DISTINCT opt->>'network' AS network
                             FROM jsonb_array_elements(o.payment_options) AS opt
                            WHERE opt->>'network' <> o.network) other
       WHERE o.payment_options IS NOT NULL
       GROUP BY 1, 2, 3;
  `);

export const down = runSql(`
    DROP TRIGGER orders_option_recounted ON orders;
    DROP TRIGGER orders_option_counted ON orders;
    DROP FUNCTION count_order_options();
    DROP TABLE order_option_counts;
  `);
