import type { Migration } from '../migrate';

/** Where the hosted checkout page sends the payer after paying (optional, per order). */
export const up: Migration = async ({ context: db }) => {
  await db.query(`ALTER TABLE orders ADD COLUMN IF NOT EXISTS return_url text`);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`ALTER TABLE orders DROP COLUMN IF EXISTS return_url`);
};
