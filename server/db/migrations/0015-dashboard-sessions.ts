import { runSql } from './run-sql';
import { merchantRefCascading } from './columns';

/**
 * The dashboard's sign-in sessions. The cookie holds a random secret; the table its SHA-256 (`id`),
 * the merchant's token version when it signed in (a password change ends every session, as it
 * ends every login token) and the CSRF token its page sends with each change. A session ends at
 * sign-out, or once it has been idle DASHBOARD_SESSION_IDLE_HOURS.
 */
export const up = runSql(`
    CREATE TABLE dashboard_sessions (
      id text PRIMARY KEY,
      ${merchantRefCascading},
      token_version integer NOT NULL,
      csrf_token text NOT NULL,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL
    );
    CREATE INDEX dashboard_sessions_merchant_idx ON dashboard_sessions (merchant_id);
    CREATE INDEX dashboard_sessions_seen_idx ON dashboard_sessions (last_seen_at);
  `);

export const down = runSql('DROP TABLE dashboard_sessions');
