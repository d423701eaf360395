import { runSql } from './run-sql';
import { merchantRefCascading, timestamps } from './columns';

/**
 * x402 (DESIGN "x402: payments per API call"). Orders get a kind (`order`, or `x402` for a payment
 * per API call settled by this service as facilitator) with the resource paid for and the payer.
 * `x402_settlements` holds each authorization presented for settlement, unique by its key (EVM: the
 * EIP-3009 authorization's token, authorizer and nonce on its chain; Solana: the transaction's
 * message), inserted before anything is sent: the same payment presented twice, concurrently or to
 * two instances, settles once. A row refused before sending is deleted (released). Payment
 * claims get the source `x402` (the facilitator's transaction for its order) and `matchedBy: x402`.
 */
export const up = runSql(`
    ALTER TABLE orders ADD COLUMN kind text NOT NULL DEFAULT 'order',
                       ADD COLUMN resource text,
                       ADD COLUMN payer text;
    CREATE INDEX orders_merchant_kind_idx ON orders (merchant_id, kind, created_at DESC) WHERE kind <> 'order';
    CREATE TABLE x402_settlements (
      id bigserial PRIMARY KEY,
      settlement_key text NOT NULL UNIQUE,
      ${merchantRefCascading},
      network text NOT NULL,
      asset text NOT NULL,
      pay_to text NOT NULL,
      payer text,
      amount_units numeric(78,0) NOT NULL,
      status text NOT NULL,
      transaction text,
      error_reason text,
      order_id bigint REFERENCES orders(id) ON DELETE SET NULL,
      ${timestamps}
    );
    ALTER TABLE payment_claims
      DROP CONSTRAINT payment_claims_source_check,
      ADD CONSTRAINT payment_claims_source_check CHECK (source IN ('merchant', 'payer', 'scanner', 'x402')),
      DROP CONSTRAINT payment_claims_matched_by_check,
      ADD CONSTRAINT payment_claims_matched_by_check CHECK (matched_by IN ('tag', 'amount', 'claim', 'x402'));
    CREATE INDEX x402_settlements_transaction_idx ON x402_settlements (transaction)
      WHERE transaction IS NOT NULL;
  `);

export const down = runSql(`
    DROP TABLE x402_settlements;
    ALTER TABLE payment_claims
      DROP CONSTRAINT payment_claims_source_check,
      ADD CONSTRAINT payment_claims_source_check CHECK (source IN ('merchant', 'payer', 'scanner')),
      DROP CONSTRAINT payment_claims_matched_by_check,
      ADD CONSTRAINT payment_claims_matched_by_check CHECK (matched_by IN ('tag', 'amount', 'claim'));
    DROP INDEX orders_merchant_kind_idx;
    ALTER TABLE orders DROP COLUMN kind, DROP COLUMN resource, DROP COLUMN payer;
  `);
