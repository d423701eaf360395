import { LRUCache } from 'lru-cache';
import { QueryTypes, type Sequelize } from 'sequelize';

/** The table every rate limit counts in (migration 0006). */
export const RATE_LIMIT_TABLE = 'rate_limits';

/** How often a waiting attempt looks at the store again (attempts on other instances settle there). */
const LOGIN_POLL_MS = 100;
/**
 * An in-flight mark outlives any check; one left by an instance that died mid-check ends after
 * this. It is also how long an attempt waits for the checks ahead of it without any of them
 * settling: however slow they are (a burst of correct logins on a busy machine queues for password
 * checks of tens of ms of CPU each, seconds under load), checks that still settle are no reason to
 * refuse a correct password.
 */
const IN_FLIGHT_TTL_MS = 60_000;

const NOW_MS = `(extract(epoch FROM now()) * 1000)::bigint`;

/** Takes a point of `key` when one is left (or its window has ended), and marks it in flight. */
const TAKE = `
  WITH taken AS (
    INSERT INTO ${RATE_LIMIT_TABLE} AS r (key, points, expire) VALUES (:key, 1, ${NOW_MS} + :windowMs)
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN r.expire > ${NOW_MS} THEN r.points + 1 ELSE 1 END,
      expire = CASE WHEN r.expire > ${NOW_MS} THEN r.expire ELSE EXCLUDED.expire END
    WHERE r.expire IS NULL OR r.expire <= ${NOW_MS} OR r.points < :limit
    RETURNING r.expire, r.points, (r.expire - ${NOW_MS})::float8 AS ms_left
  ), flight AS (
    INSERT INTO ${RATE_LIMIT_TABLE} AS f (key, points, expire)
    SELECT :flightKey, 1, ${NOW_MS} + ${IN_FLIGHT_TTL_MS} FROM taken
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN f.expire > ${NOW_MS} THEN f.points + 1 ELSE 1 END,
      expire = EXCLUDED.expire
    RETURNING 1
  )
  SELECT expire::text AS expire, points, ms_left FROM taken`;

/**
 * After a refusal (a statement of its own, so it sees every take and settle committed before it):
 * the window's points as they are now, not as the refused take saw them. An attempt may have
 * settled in between, giving its point back and leaving nothing in flight.
 */
const STATE = `
  SELECT (r.expire - ${NOW_MS})::float8 AS ms_left, COALESCE(r.points, 0) AS points,
    COALESCE((SELECT f.points FROM ${RATE_LIMIT_TABLE} f WHERE f.key = :flightKey AND f.expire > ${NOW_MS}), 0)
      AS in_flight
  FROM (SELECT 1) AS one LEFT JOIN ${RATE_LIMIT_TABLE} r ON r.key = :key`;

/** A point taken: its counter's key, limit and window end, and the points taken in that window. */
type Held = { key: string; expire: string; limit: number; points: number; resetMs: number };
/** Taken (every counter's point), or refused by the counter with that limit until its window ends. */
type Admission = { held: Held[] } | { retryAfterMs: number; limit: number; resetMs: number };

/**
 * Login attempts, counted in the rate_limits table under one key per counter (client and e-mail,
 * client). Every attempt takes a point of each before the password is checked, so attempts sent
 * at once cannot slip past the limit; a success gives its points back, so only failures count.
 *
 * An attempt that finds a counter full while attempts holding its points are still being checked
 * (their number is kept in the store too, an in-flight mark per key) waits for them, however long
 * they take: a correct one will give its point back, and whether this one is correct is not known
 * before its own check. It tries again as each attempt of this instance settles, and every
 * LOGIN_POLL_MS for those of other instances; it gives up only after IN_FLIGHT_TTL_MS without any
 * of them settling (marks of an instance that died mid-check). When nothing is in flight the counter's points are
 * all failures, kept until its window ends: the answer is 429 with Retry-After the end of the
 * window, and this instance remembers that until then (the store could not say otherwise), so a
 * flood costs no database write per request. Retry-After is always the end of the window that
 * refused: a login after it is never refused by that window again.
 */
export function createLoginAttempts(
  sequelize: Sequelize,
  counters: { prefix: string; limit: number }[],
  windowMs: number,
) {
  const blockedUntil = new LRUCache<string, number>({ max: 10_000 });
  const waiters = new Map<string, Set<() => void>>();
  const flightKey = (key: string) => `login:in-flight:${key}`;

  async function take(key: string, limit: number): Promise<Held | null> {
    const rows = await sequelize.query<{ expire: string; points: number; ms_left: number }>(TAKE, {
      type: QueryTypes.SELECT,
      replacements: { key, limit, windowMs, flightKey: flightKey(key) },
    });
    const row = rows[0];
    return row
      ? { key, expire: row.expire, limit, points: Number(row.points), resetMs: Number(row.ms_left) }
      : null;
  }

  async function state(key: string) {
    const rows = await sequelize.query<{ ms_left: number | null; points: number; in_flight: number }>(STATE, {
      type: QueryTypes.SELECT,
      replacements: { key, flightKey: flightKey(key) },
    });
    return {
      msLeft: Number(rows[0]?.ms_left ?? 0),
      points: Number(rows[0]?.points ?? 0),
      inFlight: Number(rows[0]?.in_flight ?? 0),
    };
  }

  /** An attempt is over: its in-flight marks go, and with `giveBack` its points (of their window). */
  async function settle(held: Held[], giveBack: boolean) {
    if (!held.length) return;
    const replacements: Record<string, string | string[]> = { flights: held.map((h) => flightKey(h.key)) };
    const points = held.map((h, i) => {
      replacements[`k${i}`] = h.key;
      replacements[`e${i}`] = h.expire;
      return `(key = :k${i} AND expire = :e${i})`;
    });
    try {
      // Rows locked in key order (a counter's key sorts before its in-flight mark, as TAKE locks
      // them): an attempt settling while another takes the same counter, or two settling together,
      // could otherwise lock the two rows in opposite orders and deadlock, failing the take (a 500).
      await sequelize.query(
        `UPDATE ${RATE_LIMIT_TABLE} r SET points = GREATEST(r.points - 1, 0)
         FROM (SELECT key FROM ${RATE_LIMIT_TABLE}
               WHERE key IN (:flights)${giveBack ? ` OR ${points.join(' OR ')}` : ''}
               ORDER BY key COLLATE "C" FOR UPDATE) AS locked
         WHERE r.key = locked.key`,
        { replacements },
      );
    } catch {
      // The database is away: the marks end on their own; a success's point stays a failure.
    } finally {
      for (const { key } of held) for (const wake of waiters.get(key) ?? []) wake();
    }
  }

  /** Until an attempt of `key` on this instance settles (true), or `ms` pass (false). */
  function settledOrTimeout(key: string, ms: number) {
    return new Promise<boolean>((resolve) => {
      const set = waiters.get(key) ?? new Set();
      waiters.set(key, set);
      const done = (settled: boolean) => {
        clearTimeout(timer);
        set.delete(wake);
        if (!set.size && waiters.get(key) === set) waiters.delete(key);
        resolve(settled);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      set.add(wake);
    });
  }

  /** Takes a point of each counter, all or none: the key refused, or what was taken. */
  async function takeAll(keys: string[]): Promise<{ held: Held[]; refused?: number }> {
    const held: Held[] = [];
    for (const [i, key] of keys.entries()) {
      const point = await take(key, counters[i]!.limit);
      if (point === null) {
        await settle(held, true);
        return { held: [], refused: i };
      }
      held.push(point);
    }
    return { held };
  }

  /** `keys[i]` is counted by `counters[i]`. */
  async function admit(keys: string[]): Promise<Admission> {
    const full = keys.map((key, i) => `${counters[i]!.prefix}:${key}`);
    let patience = Date.now() + IN_FLIGHT_TTL_MS;
    let seen = -1;
    for (;;) {
      const now = Date.now();
      const blocked = full.map((key) => (blockedUntil.get(key) ?? 0) - now);
      const longest = blocked.indexOf(Math.max(...blocked));
      if (blocked[longest]! > 0) {
        const ms = blocked[longest]!;
        return { retryAfterMs: ms, limit: counters[longest]!.limit, resetMs: ms };
      }
      const { held, refused: index } = await takeAll(full);
      if (index === undefined) return { held };
      const refused = full[index]!;
      const limit = counters[index]!.limit;
      const { msLeft, points, inFlight } = await state(refused);
      // A point came back (or the window ended) since the take: take again at once.
      if (points < limit || msLeft <= 0) continue;
      if (inFlight === 0) {
        // Every point is a failure, kept until the window ends: nothing can change that before.
        blockedUntil.set(refused, Date.now() + msLeft, { ttl: msLeft });
        return { retryAfterMs: msLeft, limit, resetMs: msLeft };
      }
      // Attempts that settle (here, or on another instance: the number in flight changes) are progress.
      if (inFlight !== seen) patience = Date.now() + IN_FLIGHT_TTL_MS;
      seen = inFlight;
      const left = patience - Date.now();
      if (left <= 0) return { retryAfterMs: Math.max(msLeft, 1000), limit, resetMs: Math.max(msLeft, 0) };
      if (inFlight > 0 && (await settledOrTimeout(refused, Math.min(LOGIN_POLL_MS, left))))
        patience = Date.now() + IN_FLIGHT_TTL_MS;
    }
  }

  return { admit, settle };
}
