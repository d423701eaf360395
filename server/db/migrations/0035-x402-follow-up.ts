import { runSql } from './run-sql';

/**
 * x402 settlements followed up after a crash (issue 39): a process that dies after the transfer
 * was broadcast but before its order was written leaves only its x402_settlements row. The row now
 * carries what writing that order takes, set when the authorization is claimed (before anything is
 * sent): the order's reference (chosen then, so the order is written once whoever writes it), the
 * receiving wallet, the URL paid for, and the API key and member that settled it (plain ids: the
 * record of who acted outlives a key's deletion or a member's removal). `recording_until`: the
 * lease of whoever is writing the order now (a row lock would hold a connection while the order's
 * own statements wait for theirs).
 */
export const up = runSql(`
    ALTER TABLE x402_settlements ADD COLUMN order_reference text,
                                 ADD COLUMN wallet_id uuid,
                                 ADD COLUMN resource text,
                                 ADD COLUMN api_key_id uuid,
                                 ADD COLUMN member_id uuid,
                                 ADD COLUMN recording_until timestamptz;
    CREATE INDEX x402_settlements_unrecorded_idx ON x402_settlements (updated_at)
      WHERE order_id IS NULL AND status IN ('sent', 'settled', 'pending');
  `);

export const down = runSql(`
    DROP INDEX x402_settlements_unrecorded_idx;
    ALTER TABLE x402_settlements DROP COLUMN order_reference, DROP COLUMN wallet_id, DROP COLUMN resource,
                                 DROP COLUMN api_key_id, DROP COLUMN member_id, DROP COLUMN recording_until;
  `);
