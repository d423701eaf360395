import { runSql } from './run-sql';

/**
 * The evidence ladder is the same on every network: a transfer pays an order by its tag (Solana
 * reference key, EVM calldata tag), its exact amount, or the payer's claim; and who sent it is kept.
 */
export const up = runSql(`
    ALTER TABLE payment_claims DROP CONSTRAINT IF EXISTS payment_claims_matched_by_check;
    UPDATE payment_claims SET matched_by = 'tag' WHERE matched_by = 'reference';
    ALTER TABLE payment_claims
      ADD CONSTRAINT payment_claims_matched_by_check CHECK (matched_by IN ('tag', 'amount', 'claim')),
      ADD COLUMN sender text;
  `);

export const down = runSql(`
    ALTER TABLE payment_claims DROP CONSTRAINT payment_claims_matched_by_check, DROP COLUMN sender;
    UPDATE payment_claims SET matched_by = 'reference' WHERE matched_by = 'tag';
    UPDATE payment_claims SET matched_by = NULL WHERE matched_by = 'claim';
    ALTER TABLE payment_claims
      ADD CONSTRAINT payment_claims_matched_by_check CHECK (matched_by IN ('reference', 'amount'));
  `);
