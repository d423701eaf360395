import { runSql } from './run-sql';

/**
 * Who reported an account's PayoutBatch contract (the deployment, or the one that replaced it), as
 * an order says who made it: `{"memberId", "email"}` or `{"apiKeyId"}`. Null for contracts recorded
 * before this column.
 */
export const up = runSql(`ALTER TABLE payout_batch_contracts ADD COLUMN reported_by jsonb;`);

export const down = runSql(`ALTER TABLE payout_batch_contracts DROP COLUMN reported_by;`);
