import { runSql } from './run-sql';

/**
 * x402 settlements the follow-up job looks at besides the unrecorded ones (issue 39): claims left
 * `sending` by a process that died before signing (expired once idle), and `pending` settlements
 * whose order is written (settled once their receipt is there). Both are few in a table that holds
 * every paid API call: a partial index keeps their look from reading it all.
 */
export const up = runSql(`
    CREATE INDEX x402_settlements_open_idx ON x402_settlements (updated_at)
      WHERE status IN ('sending', 'pending');
  `);

export const down = runSql(`DROP INDEX x402_settlements_open_idx;`);
