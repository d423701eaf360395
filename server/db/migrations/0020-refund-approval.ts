import { runSql } from './run-sql';

/**
 * Refund addresses approved, and late refunds (issue 27).
 *
 * - AWAITING_APPROVAL: the payer gave an address without proof that it paid the order; nothing is
 *   sent to it until the merchant approves it.
 * - A FAILED refund whose transfer may still land keeps being looked for until `late_until`
 *   (LATE_PAYMENT_WINDOW_SECONDS after it failed), and holds its amount until then; found, it
 *   becomes SUCCEEDED with `late`. Refunds failed before this migration have no window.
 * - `next_check_at` NULL: never due again (a settled refund, or a FAILED one past its window), so
 *   the verifier's lease, which takes FAILED refunds too now, never wakes them.
 */
export const up = runSql(`
    ALTER TABLE refunds
      DROP CONSTRAINT refunds_status_check,
      ADD CONSTRAINT refunds_status_check
        CHECK (status IN ('AWAITING_ADDRESS', 'AWAITING_APPROVAL', 'PENDING', 'SUCCEEDED', 'FAILED')),
      ADD COLUMN late boolean NOT NULL DEFAULT false,
      ADD COLUMN late_until timestamptz,
      ALTER COLUMN next_check_at DROP NOT NULL;
    UPDATE refunds SET next_check_at = NULL WHERE status IN ('SUCCEEDED', 'FAILED');
    DROP INDEX refunds_due_idx;
    CREATE INDEX refunds_due_idx ON refunds (next_check_at)
      WHERE status IN ('AWAITING_ADDRESS', 'AWAITING_APPROVAL', 'PENDING', 'FAILED');
  `);

export const down = runSql(`
    DROP INDEX refunds_due_idx;
    CREATE INDEX refunds_due_idx ON refunds (next_check_at) WHERE status IN ('AWAITING_ADDRESS', 'PENDING');
    UPDATE refunds SET next_check_at = updated_at WHERE next_check_at IS NULL;
    UPDATE refunds SET status = 'AWAITING_ADDRESS', to_address = NULL, address_set_at = NULL
     WHERE status = 'AWAITING_APPROVAL';
    ALTER TABLE refunds
      ALTER COLUMN next_check_at SET NOT NULL,
      DROP COLUMN late_until,
      DROP COLUMN late,
      DROP CONSTRAINT refunds_status_check,
      ADD CONSTRAINT refunds_status_check
        CHECK (status IN ('AWAITING_ADDRESS', 'PENDING', 'SUCCEEDED', 'FAILED'));
  `);
