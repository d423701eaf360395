// count_orders() as migrations 0009 and 0011 write it, in the exact text they were applied with:
// it is the stored body of the function.

/**
 * The trigger function that keeps order_counts: `shard` is the SQL of the shard an increment goes
 * to; `decrementOrder`, a line between a decrement's filter and its LIMIT (where it looks first).
 * 0009 wrote no such line, 0011's down an empty one.
 */
export function countOrders(create: 'CREATE' | 'CREATE OR REPLACE', shard: string, decrementOrder?: string) {
  const decrementOrderLine = decrementOrder === undefined ? '' : `\n                 ${decrementOrder}`;
  return `${create} FUNCTION count_orders() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      s smallint := ${shard};
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF NEW.status IS NOT DISTINCT FROM OLD.status AND NEW.network = OLD.network THEN RETURN NULL; END IF;
        UPDATE order_counts SET n = n - 1
         WHERE (merchant_id, network, status, shard) =
               (SELECT merchant_id, network, status, shard FROM order_counts
                 WHERE merchant_id = OLD.merchant_id AND network = OLD.network AND status = OLD.status AND n > 0${decrementOrderLine}
                 LIMIT 1);
      END IF;
      INSERT INTO order_counts AS c (merchant_id, network, status, shard, n)
      VALUES (NEW.merchant_id, NEW.network, NEW.status, s, 1)
      ON CONFLICT (merchant_id, network, status, shard) DO UPDATE SET n = c.n + 1;
      RETURN NULL;
    END $$;`;
}
