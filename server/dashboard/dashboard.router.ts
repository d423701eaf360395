import type { Response } from 'express';
import { initServer } from '@ts-rest/express';
import { dashboardContract } from '../../contract';
import { endSession, maxAgeMs, sessionCookieName } from '../auth/dashboard-sessions';
import { sessionCookie } from '../auth/session-auth';
import type { Deps } from '../deps';
import type { RateLimits } from '../http/rate-limits';
import { csvAnswer } from '../http/csv-answer';
import { currentMerchant, currentUser } from '../http/current-merchant';
import { exportOrders } from './export-orders';
import { exportPayments } from './export-payments';
import { presentSession, signIn, signInWithCode } from './sign-in';
import { summarize } from './summarize';
import { memberSales } from './member-sales';
import { salesByMember } from './sales-by-member';

/**
 * httpOnly (no script reads it), SameSite=Strict (no other site sends it), Secure under https,
 * Path=/ and no Domain (as the `__Host-` name requires).
 */
function cookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'strict' as const, secure, path: '/' };
}

const isHttps = (deps: Pick<Deps, 'config'>, req: { secure: boolean }) =>
  req.secure || deps.config.PUBLIC_BASE_URL.startsWith('https:');

function clearCookie(deps: Pick<Deps, 'config'>, req: { secure: boolean }, res: Response) {
  res.clearCookie(sessionCookieName(deps.config), cookieOptions(isHttps(deps, req)));
}

/** A session begun: its cookie, which lives as long as the session may (the server ends it sooner when idle). */
function setSessionCookie(
  deps: Pick<Deps, 'config'>,
  req: { secure: boolean },
  res: Response,
  secret: string,
) {
  res.cookie(sessionCookieName(deps.config), secret, {
    ...cookieOptions(isHttps(deps, req)),
    maxAge: maxAgeMs(deps),
  });
}

/** An export's file name: what it holds and the days it covers. */
const csvName = (kind: string, range: { from: string; to: string }) =>
  `${kind}-${range.from}-${range.to}.csv`;

export function dashboardRouter(deps: Deps, limits: Pick<RateLimits, 'secondFactor'>) {
  return initServer().router(dashboardContract, {
    signIn: async ({ req, res, body }) => {
      const answer = await signIn(deps, body);
      res.setHeader('Cache-Control', 'no-store');
      if ('step' in answer) return { status: 200, body: answer.step };
      setSessionCookie(deps, req, res, answer.secret);
      return { status: 200, body: answer.body };
    },
    signInMfa: async ({ req, res, body }) => {
      const { secret, body: session } = await signInWithCode(deps, body, (memberId) =>
        limits.secondFactor(memberId, res),
      );
      setSessionCookie(deps, req, res, secret);
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200, body: session };
    },
    session: async ({ req, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      return {
        status: 200,
        body: presentSession(deps, currentUser(req), req.user?.dashboardSession?.csrfToken ?? null),
      };
    },
    signOut: async ({ req, res }) => {
      const secret = sessionCookie(req, deps.config);
      if (secret) await endSession(deps, secret);
      clearCookie(deps, req, res);
      return { status: 204, body: undefined };
    },
    summary: async ({ req, query }) => {
      const merchantId = currentMerchant(req).id;
      const { by, ...range } = query;
      const summary = await summarize(deps, merchantId, range);
      if (by !== 'member') return { status: 200, body: summary };
      return { status: 200, body: { ...summary, byMember: await salesByMember(deps, merchantId, range) } };
    },
    mySales: async ({ req, query }) => {
      const { merchant, member } = currentUser(req);
      return { status: 200, body: await memberSales(deps, merchant.id, member, query) };
    },
    exportOrders: async ({ req, res, query }) =>
      csvAnswer(deps, res, csvName('orders', query), exportOrders(deps, currentMerchant(req).id, query)),
    exportPayments: async ({ req, res, query }) =>
      csvAnswer(deps, res, csvName('payments', query), exportPayments(deps, currentMerchant(req).id, query)),
  });
}
