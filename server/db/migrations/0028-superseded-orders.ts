import { runSql } from './run-sql';

/**
 * When an order was closed because another order paid for what it billed (a subscription period's
 * remade order, once the expired one was paid late): from then on it is payable no more, not even
 * in the late window an expired order has (server/orders/payable.ts). Null for every other order.
 */
export const up = runSql(`ALTER TABLE orders ADD COLUMN superseded_at timestamptz`);

export const down = runSql(`ALTER TABLE orders DROP COLUMN superseded_at`);
