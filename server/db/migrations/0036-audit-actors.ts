import { runSql } from './run-sql';

/**
 * Issue 38: an audit entry a person made names it, `member` or `api_key` (with `memberId` and
 * `memberEmail`, or `apiKeyId`, in its data), where entries before said `merchant` for the one
 * login there was; those keep saying it (who of the account's members it was is not known).
 */
export const up = runSql(`
    ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_actor_check;
    ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_actor_check
      CHECK (actor IN ('member', 'api_key', 'payer', 'system', 'merchant'));
  `);

export const down = runSql(`
    ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_actor_check;
    UPDATE audit_entries SET actor = 'merchant' WHERE actor IN ('member', 'api_key');
    ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_actor_check
      CHECK (actor IN ('merchant', 'payer', 'system'));
  `);
