import { announceChange } from './announce-change';
import { runSql } from './run-sql';
import { merchantRefCascading, timestamps } from './columns';

/**
 * Accounts and their members (issue 38). The merchant of before is the account; the people who
 * sign in to it are its members, each with an e-mail (one account per e-mail), a password and a
 * role (contract/permissions.ts). Each account's login becomes its `owner` member, with the
 * merchant's id as its own id, its e-mail, password hash and token version: a login token (its
 * subject the merchant's id, its version the merchant's) names that member and keeps working, a
 * dashboard session is the owner's, and the API keys made so far are the owner's.
 *
 * `token_version` is the member's: a password change, a removal or a demotion bumps it and ends
 * the member's tokens and sessions. Every change to a member row is announced on the change feed
 * when it commits (as merchants' are, migration 0010), so every instance's member cache
 * (server/db/caches.ts) drops it: the next request on any instance sees the change.
 *
 * A removed member keeps its row (`removed_at`: the timeline still names it), and its e-mail is free
 * to join another account. The merchants table keeps its e-mail (the account's contact address)
 * and `token_version` (order creation still checks it); the password hash moves to the owner.
 */
export const up = runSql(`
    CREATE TABLE members (
      id uuid PRIMARY KEY,
      ${merchantRefCascading},
      email text NOT NULL,
      name text,
      password_hash text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'finance', 'cashier', 'viewer')),
      token_version integer NOT NULL DEFAULT 0,
      ${timestamps},
      removed_at timestamptz
    );
    CREATE UNIQUE INDEX members_email_idx ON members (lower(email)) WHERE removed_at IS NULL;
    CREATE INDEX members_merchant_idx ON members (merchant_id, created_at);

    INSERT INTO members (id, merchant_id, email, name, password_hash, role, token_version, created_at, updated_at)
    SELECT id, id, email, full_name, password_hash, 'owner', token_version, created_at, updated_at FROM merchants;

    ALTER TABLE merchants DROP COLUMN password_hash;

    ${announceChange('announce_member_change', "'member:' || OLD.id")}
    CREATE TRIGGER members_announced AFTER UPDATE OR DELETE ON members
      FOR EACH ROW EXECUTE FUNCTION announce_member_change();

    ALTER TABLE dashboard_sessions ADD COLUMN member_id uuid REFERENCES members(id) ON DELETE CASCADE;
    UPDATE dashboard_sessions SET member_id = merchant_id;
    ALTER TABLE dashboard_sessions ALTER COLUMN member_id SET NOT NULL;
    CREATE INDEX dashboard_sessions_member_idx ON dashboard_sessions (member_id);

    ALTER TABLE api_keys ADD COLUMN created_by uuid REFERENCES members(id);
    UPDATE api_keys SET created_by = merchant_id;
    ALTER TABLE api_keys ALTER COLUMN created_by SET NOT NULL;
  `);

export const down = runSql(`
    ALTER TABLE api_keys DROP COLUMN created_by;
    DROP INDEX dashboard_sessions_member_idx;
    DELETE FROM dashboard_sessions s USING members m WHERE m.id = s.member_id AND m.role <> 'owner';
    ALTER TABLE dashboard_sessions DROP COLUMN member_id;
    ALTER TABLE merchants ADD COLUMN password_hash text;
    UPDATE merchants SET password_hash = m.password_hash, email = m.email, token_version = m.token_version
      FROM members m WHERE m.id = merchants.id;
    ALTER TABLE merchants ALTER COLUMN password_hash SET NOT NULL;
    DROP TABLE members;
    DROP FUNCTION announce_member_change();
  `);
