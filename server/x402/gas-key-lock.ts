import type { Deps } from '../deps';

/** The settlement under way on each gas key in this process (the next waits for it). */
const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `send` alone for the gas key `address` (its nonces): one at a time in this process, and
 * across instances under a PostgreSQL advisory lock held for the call (a transaction of its own,
 * whose statements may wait as long as a settlement may take).
 */
export async function withGasKeyLock<T>(
  deps: Pick<Deps, 'db' | 'config'>,
  address: string,
  send: () => Promise<T>,
): Promise<T> {
  const key = address.toLowerCase();
  const before = tails.get(key) ?? Promise.resolve();
  const run = before.then(
    () => locked(deps, key, send),
    () => locked(deps, key, send),
  );
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}

function locked<T>(deps: Pick<Deps, 'db' | 'config'>, key: string, send: () => Promise<T>): Promise<T> {
  const { sequelize } = deps.db;
  return sequelize.transaction(async (transaction) => {
    const wait = Math.max(deps.config.x402.settleTimeoutMs, deps.config.DB_STATEMENT_TIMEOUT_MS);
    await sequelize.query(`SET LOCAL statement_timeout = ${Math.floor(wait)}`, { transaction });
    await sequelize.query(`SELECT pg_advisory_xact_lock(hashtextextended(:key, 402))`, {
      transaction,
      replacements: { key: `x402-gas:${key}` },
    });
    return send();
  });
}
