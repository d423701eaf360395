import { runSql } from './run-sql';

/** Where the hosted checkout page sends the payer after paying (optional, per order). */
export const up = runSql(`ALTER TABLE orders ADD COLUMN IF NOT EXISTS return_url text`);

export const down = runSql(`ALTER TABLE orders DROP COLUMN IF EXISTS return_url`);
