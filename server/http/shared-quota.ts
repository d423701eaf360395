import { QueryTypes, type Sequelize } from 'sequelize';
import { RATE_LIMIT_TABLE } from './login-attempts';

/** `remaining` and `resetMs` as this instance knows them: its unspent share and the window's end. */
export type QuotaAnswer = { allowed: boolean; limit: number; remaining: number; resetMs: number };

/**
 * Takes a share of a window's quota in one statement and tells how much of the quota all instances
 * have asked for. The counter counts what was asked, not what was granted (a request past the
 * limit adds its share too), so that what this request got follows from it:
 * `granted = min(share, max(limit - (asked - share), 0))`. Same row and keys as
 * take_rate_limit_share (migration 0006), which it replaces: an instance of an older release
 * still counts correctly beside it (it grants nothing once the counter reaches the limit).
 */
const TAKE_SHARE = `
  INSERT INTO ${RATE_LIMIT_TABLE} AS r (key, points, expire) VALUES (:key, :share, :expire)
  ON CONFLICT (key) DO UPDATE SET points = r.points + :share
  RETURNING r.points AS asked`;

/**
 * A per-key quota for each fixed window (`limit` per `windowSeconds`), shared by every instance
 * through PostgreSQL, but not at the price of a database write per request: an instance takes the
 * quota in shares (a twentieth of it, at least 1) and spends them in memory, going back to the
 * database when its share is used up. Instances together never admit more than `limit` in a
 * window; a share left unspent at the window's end is lost, so they may admit a little less.
 * (rate-limiter-flexible, used for the other limits, writes once per request.)
 *
 * What is left (RateLimit-Remaining) is this instance's unspent share plus what the database had
 * not handed out at its last visit: exact with one instance, an upper bound with several (others
 * may have taken shares since), and it never grows within a window.
 */
export function createSharedQuota(
  sequelize: Sequelize,
  opts: { prefix: string; limit: number; windowSeconds: number },
) {
  const windowMs = opts.windowSeconds * 1000;
  const share = Math.max(1, Math.floor(opts.limit / 20));
  /**
   * This instance's unspent share per key, for the current window; unclaimed: what the database had
   * left at the last refill; exhausted: the database had none left.
   */
  const local = new Map<string, { window: number; left: number; unclaimed: number; exhausted: boolean }>();
  const pending = new Map<string, Promise<void>>();

  async function refill(key: string, window: number) {
    const rows = await sequelize.query<{ asked: number | string }>(TAKE_SHARE, {
      type: QueryTypes.SELECT,
      replacements: {
        key: `${opts.prefix}:${key}:${window}`,
        share,
        expire: (window + 1) * windowMs,
      },
    });
    const asked = Number(rows[0]?.asked ?? opts.limit + share);
    const granted = Math.min(share, Math.max(opts.limit - (asked - share), 0));
    const entry = local.get(key);
    // A share of an earlier window never pays for this one.
    const left = (entry?.window === window ? entry.left : 0) + granted;
    const unclaimed = Math.max(opts.limit - asked, 0);
    local.set(key, { window, left, unclaimed, exhausted: granted === 0 });
  }

  return async function take(key: string): Promise<QuotaAnswer> {
    const window = Math.floor(Date.now() / windowMs);
    const answer = (allowed: boolean, remaining: number): QuotaAnswer => ({
      allowed,
      limit: opts.limit,
      remaining,
      resetMs: Math.max(0, (window + 1) * windowMs - Date.now()),
    });
    for (;;) {
      const entry = local.get(key);
      const current = entry?.window === window ? entry : undefined;
      if (current && current.left > 0) {
        current.left--;
        return answer(true, current.left + current.unclaimed);
      }
      if (current?.exhausted) return answer(false, 0);
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
