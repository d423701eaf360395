import { QueryTypes, type Sequelize } from 'sequelize';

export type QuotaAnswer = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * A per-key quota for each fixed window (`limit` per `windowSeconds`), shared by every instance
 * through PostgreSQL, but not at the price of a database write per request: an instance takes the
 * quota in shares (a twentieth of it, at least 1) and spends them in memory, going back to the
 * database when its share is used up. Instances together never admit more than `limit` in a
 * window; a share left unspent at the window's end is lost, so they may admit a little less.
 * (rate-limiter-flexible, used for the other limits, writes once per request.)
 */
export function createSharedQuota(
  sequelize: Sequelize,
  opts: { prefix: string; limit: number; windowSeconds: number },
) {
  const windowMs = opts.windowSeconds * 1000;
  const share = Math.max(1, Math.floor(opts.limit / 20));
  /** This instance's unspent share per key, for the current window; exhausted: the database had none left. */
  const local = new Map<string, { window: number; left: number; exhausted: boolean }>();
  const pending = new Map<string, Promise<void>>();

  async function refill(key: string, window: number) {
    const rows = await sequelize.query<{ granted: number }>(
      'SELECT take_rate_limit_share(:key, :limit, :share, :expire) AS granted',
      {
        type: QueryTypes.SELECT,
        replacements: {
          key: `${opts.prefix}:${key}:${window}`,
          limit: opts.limit,
          share,
          expire: (window + 1) * windowMs,
        },
      },
    );
    const granted = Number(rows[0]?.granted ?? 0);
    const entry = local.get(key);
    // A share of an earlier window never pays for this one.
    const left = (entry?.window === window ? entry.left : 0) + granted;
    local.set(key, { window, left, exhausted: granted === 0 });
  }

  return async function take(key: string): Promise<QuotaAnswer> {
    const window = Math.floor(Date.now() / windowMs);
    for (;;) {
      const entry = local.get(key);
      const current = entry?.window === window ? entry : undefined;
      if (current && current.left > 0) {
        current.left--;
        return { allowed: true };
      }
      if (current?.exhausted) return { allowed: false, retryAfterMs: (window + 1) * windowMs - Date.now() };
      // One refill per key at a time: concurrent requests wait for it instead of each asking.
      let refilling = pending.get(key);
      if (!refilling) {
        refilling = refill(key, window).finally(() => pending.delete(key));
        pending.set(key, refilling);
      }
      await refilling;
    }
  };
}
