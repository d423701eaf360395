import { runSql } from './run-sql';

/**
 * Two-factor sign-in (TOTP, RFC 6238) per member (issue 38).
 *
 * - `members.two_factor_secret`: the member's TOTP secret, sealed (deps.secrets), set when a first
 *   code confirms it; `two_factor_pending` holds an enrolment not confirmed yet.
 * - `members.two_factor_last_step`: the last time step a code was accepted at. A code is accepted
 *   only by a statement that moves it forward, so a code is taken once, whichever instance sees it.
 * - `member_recovery_codes`: 10 single-use codes per member, only their SHA-256 kept.
 * - `sign_in_challenges`: the second step of a sign-in (`mfaToken`, for a token or a dashboard
 *   session) and the enrolment of a member the account requires it of (`setupToken`): only the
 *   SHA-256 of the secret handed out, the member's token version then, an end.
 * - `merchants.require_two_factor`: the owner's switch. Merchant rows are announced on the change
 *   feed (migration 0010), so every instance sees it at the next request.
 */
export const up = runSql(`
    ALTER TABLE members
      ADD COLUMN two_factor_secret text,
      ADD COLUMN two_factor_pending text,
      ADD COLUMN two_factor_enabled_at timestamptz,
      ADD COLUMN two_factor_last_step bigint;
    ALTER TABLE merchants ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false;

    CREATE TABLE member_recovery_codes (
      member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (member_id, code_hash)
    );

    CREATE TABLE sign_in_challenges (
      id text PRIMARY KEY,
      member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('token', 'session', 'setup')),
      token_version integer NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX sign_in_challenges_member_idx ON sign_in_challenges (member_id);
  `);

export const down = runSql(`
    DROP TABLE sign_in_challenges;
    DROP TABLE member_recovery_codes;
    ALTER TABLE merchants DROP COLUMN require_two_factor;
    ALTER TABLE members
      DROP COLUMN two_factor_secret,
      DROP COLUMN two_factor_pending,
      DROP COLUMN two_factor_enabled_at,
      DROP COLUMN two_factor_last_step;
  `);
