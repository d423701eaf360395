import type { Deps } from '../deps';
import { ApiError } from '../errors';

/**
 * Revokes a key. The revocation is announced when it commits (migration 0012's trigger); the
 * answer waits until the announcement has come back to this instance (changes.sync): PostgreSQL
 * hands a notification to every listening instance at once, so by then the others have it too,
 * before the client can send its next request anywhere.
 */
export async function revokeApiKey(
  deps: Pick<Deps, 'db' | 'cache' | 'clock'>,
  merchantId: string,
  keyId: string,
): Promise<void> {
  const [rows] = (await deps.db.sequelize.query(
    `UPDATE api_keys SET revoked_at = $now
      WHERE id = $id AND merchant_id = $merchantId AND revoked_at IS NULL
      RETURNING secret_hash`,
    { bind: { id: keyId, merchantId, now: deps.clock() } },
  )) as [{ secret_hash: string }[], unknown];
  const revoked = rows[0];
  if (!revoked) throw ApiError.notFound('API key');
  deps.cache.apiKeys.forget(revoked.secret_hash);
  await deps.db.changes.sync();
}
