import { runSql } from './run-sql';

/**
 * Several instances on one database: rate-limit counters live here (the layout
 * rate-limiter-flexible's PostgreSQL store uses), and scan cursors and payment claims name the
 * worker holding them (server/jobs/lease.ts), so only the holder may write them.
 */
export const up = runSql(`
    CREATE TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    );
    -- A share of a per-window quota, taken in one round trip (server/http/shared-quota.ts).
    CREATE FUNCTION take_rate_limit_share(p_key text, p_limit integer, p_share integer, p_expire bigint)
    RETURNS integer LANGUAGE plpgsql AS $$
    DECLARE
      used integer;
      granted integer;
    BEGIN
      INSERT INTO rate_limits (key, points, expire) VALUES (p_key, 0, p_expire) ON CONFLICT (key) DO NOTHING;
      SELECT points INTO used FROM rate_limits WHERE key = p_key FOR UPDATE;
      granted := LEAST(p_share, GREATEST(p_limit - used, 0));
      IF granted > 0 THEN
        UPDATE rate_limits SET points = points + granted WHERE key = p_key;
      END IF;
      RETURN granted;
    END $$;
    ALTER TABLE scan_cursors ADD COLUMN locked_by text;
    ALTER TABLE payment_claims ADD COLUMN locked_until timestamptz, ADD COLUMN locked_by text;
  `);

export const down = runSql(`
    ALTER TABLE payment_claims DROP COLUMN locked_by, DROP COLUMN locked_until;
    ALTER TABLE scan_cursors DROP COLUMN locked_by;
    DROP FUNCTION take_rate_limit_share(text, integer, integer, bigint);
    DROP TABLE rate_limits;
  `);
