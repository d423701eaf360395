import type { Migration } from '../migrate';

/**
 * `refunds.signed_by`: the payer's wallet whose signature took the refund's address at once. What
 * a wallet's signature may approve is what it paid on the refund's option less what it approved
 * before (server/refunds/prove-refund-address.ts): a co-payer cannot sign several refunds, each
 * within its share, and take more than it paid. Null for refunds the merchant addressed or approved.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(`ALTER TABLE refunds ADD COLUMN signed_by text`);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`ALTER TABLE refunds DROP COLUMN signed_by`);
};
