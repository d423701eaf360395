import { runSql } from './run-sql';

/**
 * `refunds.signed_by`: the payer's wallet that signed the refund's address (approved at once or
 * by the merchant). What a wallet's signature may approve at once is what it paid on the refund's
 * option less the order's refunds it signed for or that go to it (server/refunds/
 * prove-refund-address.ts): a co-payer cannot sign several refunds, each within its share, and
 * take more than it paid. Null for addresses given without a signature or by the merchant.
 */
export const up = runSql(`ALTER TABLE refunds ADD COLUMN signed_by text`);

export const down = runSql(`ALTER TABLE refunds DROP COLUMN signed_by`);
