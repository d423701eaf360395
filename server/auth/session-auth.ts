import type { Request, RequestHandler } from 'express';
import type { Caches } from '../db/caches';
import { memberCredential } from './member-credential';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import type { Config } from '../config';
import { csrfMatches, endSession, findSession, sessionCookieName } from './dashboard-sessions';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session cookie's value, if the request carries one (under this instance's cookie name only). */
export function sessionCookie(
  req: Pick<Request, 'headers'>,
  config: Pick<Config, 'PUBLIC_BASE_URL'>,
): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const name = sessionCookieName(config);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether a state-changing request comes from the dashboard's own origin: browsers send `Origin`
 * with every such request (and `Sec-Fetch-Site`); a request with neither is not a browser's page
 * and must use the Authorization header instead of the cookie.
 */
export function sameOrigin(req: Request, publicBaseUrl: string): boolean {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    const own = `${req.protocol}://${req.get('host') ?? ''}`;
    return origin === new URL(publicBaseUrl).origin || origin === own;
  }
  return req.headers['sec-fetch-site'] === 'same-origin';
}

/**
 * The dashboard's cookie as a credential: it opens what the member's login token opens. A password
 * change, a demotion or a removal ends the member's sessions (the session keeps the member's token
 * version it began with, checked against the member cache); a state-changing request
 * must come from the same origin and carry the session's CSRF token (`X-CSRF-Token`).
 */
export function createSessionAuthenticator(
  deps: Pick<Deps, 'db' | 'clock' | 'config'> & Pick<Caches, 'merchants' | 'members'>,
): RequestHandler {
  return (req, _res, next) => {
    const secret = sessionCookie(req, deps.config);
    if (!secret) return next(ApiError.unauthenticated());
    (async () => {
      const session = await findSession(deps, secret);
      const found = session && (await memberCredential(deps, session.memberId, session.tokenVersion));
      if (!session || !found || found.merchant.id !== session.merchantId) {
        if (session) await endSession(deps, secret);
        throw ApiError.unauthenticated('The session has ended: sign in again');
      }
      if (!SAFE_METHODS.has(req.method)) {
        if (!sameOrigin(req, deps.config.PUBLIC_BASE_URL))
          throw ApiError.forbidden(
            'Cross-site request refused: the session cookie only works from the dashboard',
          );
        const sent = req.headers['x-csrf-token'];
        if (!csrfMatches(session, typeof sent === 'string' ? sent : undefined))
          throw ApiError.forbidden('Missing or wrong X-CSRF-Token: reload the dashboard');
      }
      req.user = { ...found, apiKey: null, dashboardSession: session };
    })().then(() => next(), next);
  };
}
