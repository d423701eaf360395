import { LRUCache } from 'lru-cache';
import type { Sequelize } from 'sequelize';

/** `lastUsedAt` is at most this far behind. */
export const KEY_USAGE_INTERVAL_MS = 60_000;

type Log = { warn(obj: object, msg: string): void };

/**
 * Records that a key was used, at most once a minute per key: the request path stays a memory
 * read. This instance writes when it has not written for the key within the interval, and the
 * statement itself skips a row another instance wrote within it. The write is not waited for; a
 * failed one is logged and tried again on the key's next use.
 */
export function createKeyUsage(sequelize: Sequelize, clock: () => Date, log: Log) {
  const lastWritten = new LRUCache<string, number>({ max: 100_000 });
  return function keyUsed(keyId: string) {
    const now = clock();
    const last = lastWritten.get(keyId);
    if (last !== undefined && now.getTime() - last < KEY_USAGE_INTERVAL_MS) return;
    lastWritten.set(keyId, now.getTime());
    sequelize
      .query(
        `UPDATE api_keys SET last_used_at = CAST($now AS timestamptz)
          WHERE id = $id AND (last_used_at IS NULL
                 OR last_used_at <= CAST($now AS timestamptz) - make_interval(secs => CAST($interval AS float8)))`,
        { bind: { id: keyId, now, interval: KEY_USAGE_INTERVAL_MS / 1000 } },
      )
      .catch((error: unknown) => {
        lastWritten.delete(keyId);
        log.warn({ err: error, keyId }, 'could not record an API key use');
      });
  };
}
export type KeyUsage = ReturnType<typeof createKeyUsage>;
