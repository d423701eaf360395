import { runSql } from './run-sql';

/**
 * Verification and scanning: what a claim was matched by, when its transaction landed, and one
 * cursor per watched address so a scan reads only what is new since the last one.
 */
export const up = runSql(`
    ALTER TABLE payment_claims
      ADD COLUMN block_time timestamptz,
      ADD COLUMN matched_by text CHECK (matched_by IN ('reference', 'amount'));

    CREATE TABLE scan_cursors (
      network text NOT NULL,
      address text NOT NULL,
      cursor text,
      locked_until timestamptz,
      scanned_at timestamptz,
      PRIMARY KEY (network, address)
    );
  `);

export const down = runSql(`
    DROP TABLE scan_cursors;
    ALTER TABLE payment_claims DROP COLUMN matched_by, DROP COLUMN block_time;
  `);
