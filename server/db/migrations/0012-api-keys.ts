import { announceChange } from './announce-change';
import { runSql } from './run-sql';
import { createdAt, merchantRef } from './columns';

/**
 * API keys: the secret is never stored, only its SHA-256 (a key is 32 random bytes, so a fast hash
 * is as safe as a slow one and costs nothing per request). A revocation (or deletion) is announced
 * on the change feed when it commits, so every instance stops accepting the key at once; writing
 * last_used_at announces nothing.
 */
export const up = runSql(`
    CREATE TABLE api_keys (
      id uuid PRIMARY KEY,
      ${merchantRef},
      name text NOT NULL,
      scopes text[] NOT NULL,
      secret_hash text NOT NULL UNIQUE,
      last4 text NOT NULL,
      ${createdAt},
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    CREATE INDEX api_keys_merchant_idx ON api_keys (merchant_id, created_at) WHERE revoked_at IS NULL;

    ${announceChange('announce_api_key_change', "'api_key:' || OLD.secret_hash")}

    CREATE TRIGGER api_keys_revocation_announced AFTER UPDATE ON api_keys
      FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.scopes IS DISTINCT FROM NEW.scopes)
      EXECUTE FUNCTION announce_api_key_change();
    CREATE TRIGGER api_keys_deletion_announced AFTER DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION announce_api_key_change();
  `);

export const down = runSql(`
    DROP TABLE api_keys;
    DROP FUNCTION announce_api_key_change();
  `);
