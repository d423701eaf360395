import { runSql } from './run-sql';
import { lease, merchantRef, orderRef, timestamps } from './columns';

/**
 * Refunds and underpayment tolerance. A refund sends part of what an order received back from the
 * order's receiving wallet; the service builds the transaction, finds it on chain by its tag (or
 * exact amount) and verifies it like a payment. `amount_refunded_units` sums verified refunds.
 */
export const up = runSql(`
    ALTER TABLE merchants
      ADD COLUMN underpayment_tolerance_bps integer
        CHECK (underpayment_tolerance_bps BETWEEN 0 AND 1000);
    ALTER TABLE orders
      ADD COLUMN amount_refunded_units bigint NOT NULL DEFAULT 0 CHECK (amount_refunded_units >= 0);

    CREATE TABLE refunds (
      id text PRIMARY KEY,
      ${orderRef},
      ${merchantRef},
      network text NOT NULL,
      token_mint text NOT NULL,
      from_address text NOT NULL,
      to_address text,
      tag text NOT NULL UNIQUE,
      amount_units bigint NOT NULL CHECK (amount_units > 0),
      reason text,
      status text NOT NULL
        CHECK (status IN ('AWAITING_ADDRESS', 'PENDING', 'SUCCEEDED', 'FAILED')),
      matched_by text CHECK (matched_by IN ('tag', 'amount')),
      tx_id text,
      failure_reason text,
      scan_cursor text,
      -- For the shared job lease (server/jobs/lease.ts), should verify-refunds move onto it.
      ${lease},
      address_set_at timestamptz,
      deadline_at timestamptz NOT NULL,
      next_check_at timestamptz NOT NULL DEFAULT now(),
      ${timestamps}
    );
    -- One transaction refunds at most one refund.
    CREATE UNIQUE INDEX refunds_tx_key ON refunds (network, tx_id) WHERE tx_id IS NOT NULL;
    CREATE INDEX refunds_order_idx ON refunds (order_id, created_at);
    CREATE INDEX refunds_due_idx ON refunds (next_check_at)
      WHERE status IN ('AWAITING_ADDRESS', 'PENDING');
  `);

export const down = runSql(`
    DROP TABLE refunds;
    ALTER TABLE orders DROP COLUMN amount_refunded_units;
    ALTER TABLE merchants DROP COLUMN underpayment_tolerance_bps;
  `);
