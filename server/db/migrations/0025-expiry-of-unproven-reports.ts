import { runSql } from './run-sql';

/**
 * A payer's unsigned report no longer holds an order past its expiry: the expiry job also reads
 * CONFIRMING orders (server/orders/order-status.ts, HOLDS_PAST_EXPIRY_SQL), so its partial index holds
 * them too. Few orders are CONFIRMING at a time; the job's read stays an index range on expires_at.
 */
export const up = runSql(`
    CREATE INDEX orders_expiry_open_idx ON orders (expires_at)
      WHERE status IN ('PENDING', 'UNDERPAID', 'CONFIRMING');
    DROP INDEX orders_expiry_idx;
  `);

export const down = runSql(`
    CREATE INDEX orders_expiry_idx ON orders (expires_at) WHERE status IN ('PENDING', 'UNDERPAID');
    DROP INDEX orders_expiry_open_idx;
  `);
