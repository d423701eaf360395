import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';
import type { Deps } from '../deps';
import { newSecretToken, SECRET_TOKEN_PATTERN, secretDigest } from '../lib/secret-token';

/**
 * The dashboard's session cookie: httpOnly, SameSite=Strict, Secure under https (the dashboard
 * router sets it). Under an https PUBLIC_BASE_URL it carries the `__Host-` prefix, so a browser
 * takes it only when Secure, for Path=/ and without Domain: no sibling subdomain, nor a page on
 * plain http, can plant or overwrite it.
 */
export const sessionCookieName = (config: Pick<Config, 'PUBLIC_BASE_URL'>) =>
  config.PUBLIC_BASE_URL.startsWith('https:') ? '__Host-stablepay_session' : 'stablepay_session';

/** `last_seen_at` is written at most this often per session: idle time is known to the minute. */
const TOUCH_INTERVAL_MS = 60_000;

export type DashboardSession = {
  id: string;
  merchantId: string;
  /** The member signed in, and its token version then. */
  memberId: string;
  tokenVersion: number;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
};

type Row = {
  id: string;
  merchant_id: string;
  member_id: string;
  token_version: number;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
};

const sessionId = secretDigest;
const SESSION_SECRET_FORMAT = new RegExp(`^${SECRET_TOKEN_PATTERN}$`);

/**
 * A new session for a member who has just given its e-mail and password. The cookie carries
 * `secret` (32 random bytes); the table keeps its hash. The member's sessions idle or open too
 * long are dropped on the way.
 */
export async function startSession(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  member: { id: string; merchantId: string; tokenVersion: number },
): Promise<{ secret: string; session: DashboardSession }> {
  const secret = newSecretToken();
  const csrfToken = newSecretToken();
  const now = deps.clock();
  await deps.db.sequelize.query(
    `WITH dropped AS (DELETE FROM dashboard_sessions
                       WHERE member_id = $memberId
                         AND (last_seen_at < CAST($idleSince AS timestamptz)
                              OR created_at < CAST($startedSince AS timestamptz)))
     INSERT INTO dashboard_sessions (id, merchant_id, member_id, token_version, csrf_token, created_at, last_seen_at)
     VALUES ($id, $merchantId, $memberId, $tokenVersion, $csrfToken, $now, $now)`,
    {
      bind: {
        id: sessionId(secret),
        merchantId: member.merchantId,
        memberId: member.id,
        tokenVersion: member.tokenVersion,
        csrfToken,
        now,
        idleSince: new Date(now.getTime() - idleMs(deps)),
        startedSince: new Date(now.getTime() - maxAgeMs(deps)),
      },
    },
  );
  return {
    secret,
    session: {
      id: sessionId(secret),
      merchantId: member.merchantId,
      memberId: member.id,
      tokenVersion: member.tokenVersion,
      csrfToken,
      createdAt: now,
      lastSeenAt: now,
    },
  };
}

export const idleMs = (deps: Pick<Deps, 'config'>) => deps.config.DASHBOARD_SESSION_IDLE_HOURS * 3_600_000;
export const maxAgeMs = (deps: Pick<Deps, 'config'>) => deps.config.DASHBOARD_SESSION_MAX_HOURS * 3_600_000;

/**
 * The session a cookie names, if it is still open: unknown, idle ones and those signed in longer
 * than the absolute lifetime ago (however busy) are null, and the latter two deleted. Its use is
 * recorded at most once a minute.
 */
export async function findSession(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  secret: string,
): Promise<DashboardSession | null> {
  if (!SESSION_SECRET_FORMAT.test(secret)) return null;
  const id = sessionId(secret);
  const [rows] = (await deps.db.sequelize.query(
    `SELECT id, merchant_id, member_id, token_version, csrf_token, created_at, last_seen_at
       FROM dashboard_sessions WHERE id = $id`,
    { bind: { id } },
  )) as [Row[], unknown];
  const row = rows[0];
  if (!row) return null;
  const now = deps.clock();
  if (
    now.getTime() - row.last_seen_at.getTime() > idleMs(deps) ||
    now.getTime() - row.created_at.getTime() > maxAgeMs(deps)
  ) {
    await endSession(deps, secret);
    return null;
  }
  if (now.getTime() - row.last_seen_at.getTime() >= TOUCH_INTERVAL_MS)
    await deps.db.sequelize.query('UPDATE dashboard_sessions SET last_seen_at = $now WHERE id = $id', {
      bind: { id, now },
    });
  return {
    id: row.id,
    merchantId: row.merchant_id,
    memberId: row.member_id,
    tokenVersion: row.token_version,
    csrfToken: row.csrf_token,
    createdAt: row.created_at,
    lastSeenAt: now,
  };
}

/** Sign-out: the session is gone, whatever the browser keeps. */
export async function endSession(deps: Pick<Deps, 'db'>, secret: string): Promise<void> {
  await deps.db.sequelize.query('DELETE FROM dashboard_sessions WHERE id = $id', {
    bind: { id: sessionId(secret) },
  });
}

/** Whether a request's CSRF header is the session's token (in constant time). */
export function csrfMatches(session: DashboardSession, sent: string | undefined): boolean {
  if (!sent) return false;
  const a = Buffer.from(session.csrfToken);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}
