import { runSql } from './run-sql';

/**
 * When a settlement's payment stops being valid (issue 39): an EVM authorization's `validBefore`.
 * A `pending` settlement whose transaction was dropped (never mined) was read again for ever; past
 * this time, with the authorization unused on chain, it can never land and is failed. Solana's
 * validity is its transaction's blockhash (kept in the settlement key), so null there.
 */
export const up = runSql(`ALTER TABLE x402_settlements ADD COLUMN valid_before timestamptz;`);

export const down = runSql(`ALTER TABLE x402_settlements DROP COLUMN valid_before;`);
