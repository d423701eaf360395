import { createSecretKey } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import jwt from 'jsonwebtoken';
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { ApiError } from '../errors';
import type { ApiKeyScope, Permission } from '../../contract';
import type { Caches, MemberRow, MerchantRow } from '../db/caches';
import { hashApiKeySecret, isApiKeySecret, looksLikeApiKey } from './api-key-secret';
import type { KeyUsage } from './api-key-usage';
import type { DashboardSession } from './dashboard-sessions';
import { memberCredential } from './member-credential';
import { JWT_ALGORITHM, TOKEN_ISSUER, type TokenClaims, type TokenIssuer } from './tokens';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface User {
      /** As the instance remembers it: a plain row, shared, never to be changed in place. */
      merchant: MerchantRow;
      /**
       * The member signed in (login token, dashboard session), or for an API key the member who made
       * it: a plain shared row like the merchant's.
       */
      member: MemberRow;
      /**
       * What the member's role may do (contract/permissions.ts), shared, never to be changed. An API
       * key acts within them and its own scopes.
       */
      permissions: ReadonlySet<Permission>;
      /** The API key that opened the request; null for the login token. */
      apiKey: { id: string; name: string; scopes: readonly ApiKeyScope[] } | null;
      /** The dashboard session whose cookie opened the request (server/auth/session-auth.ts). */
      dashboardSession?: DashboardSession;
    }
  }
}

type VerifiedToken = { sub: string; ver: number; exp: number };

/**
 * The JWT check: HS256 only (no `alg: none`, no algorithm confusion), issuer and expiry checked by
 * passport-jwt, then the member it names (`sub`; an owner made by migration 0029 has its
 * merchant's id) must be in the account, not removed, and the token's version match the member's.
 * Member and merchant come from the caches: a password change or reset, a removal or a demotion
 * reaches them when it commits (at once on this instance, within the announcement's delay on the
 * others).
 *
 * A token passport-jwt has verified is remembered, whole string as the key, with the claims it
 * carries: the same string verifies the same way again, so its next uses skip the signature
 * (the HMAC, base64 and JSON decoding and passport's plumbing were 45 µs of CPU a request). What
 * can change is still checked on every use: its expiry (as jsonwebtoken does, to the second) and
 * the merchant's token version. Any other string, a re-signed or altered token included, is
 * verified in full.
 *
 * A token must also say when it was issued and live no longer than JWT_TTL from then (issued not
 * in the future): one minted with a longer life, under an older JWT_TTL or by anyone holding the
 * secret, is refused rather than trusted for as long as it says.
 */
export function createAuthenticator(
  tokens: Pick<TokenIssuer, 'secret' | 'ttlSeconds'>,
  deps: {
    merchants: Caches['merchants'];
    members: Caches['members'];
    apiKeys: Caches['apiKeys'];
    keyUsed: KeyUsage;
    clock: () => Date;
  },
): RequestHandler {
  const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();
  const verified = new LRUCache<string, VerifiedToken>({ max: 10_000 });
  const userFor = async (claims: { sub: string; ver: number }): Promise<Express.User | false> => {
    const found = await memberCredential(deps, claims.sub, claims.ver);
    return found ? { ...found, apiKey: null } : false;
  };
  const keyHolder = createApiKeyCheck(deps);

  const authenticator = new passport.Passport();
  authenticator.use(
    new JwtStrategy(
      {
        jwtFromRequest: bearerToken,
        passReqToCallback: true,
        // A KeyObject, made once: given a string, jsonwebtoken first tries (and fails) to read it as a
        // public key on every request, which cost more than the rest of the check.
        secretOrKey: createSecretKey(Buffer.from(tokens.secret, 'utf8')) as unknown as string,
        algorithms: [JWT_ALGORITHM],
        issuer: TOKEN_ISSUER,
        // Expiry is judged below by the service's clock, the one the issuer signs with: jsonwebtoken
        // would read the process's own, so a token issued by a service on another clock (a test's, or
        // an instance a little off) would expire at a different moment than the issuer said.
        ignoreExpiration: true,
      },
      (
        req: Request,
        claims: Partial<TokenClaims> & { exp?: unknown; iat?: unknown },
        done: (err: unknown, user?: Express.User | false, info?: unknown) => void,
      ) => {
        const { sub, ver, exp } = claims;
        if (typeof sub !== 'string' || !UUID.test(sub) || typeof ver !== 'number') return done(null, false);
        const now = deps.clock();
        if (!lifetimeAllowed(claims, tokens.ttlSeconds, now)) return done(null, false);
        if (!unexpired(exp as number, now))
          return done(
            null,
            false,
            new jwt.TokenExpiredError('jwt expired', new Date((exp as number) * 1000)),
          );
        const token = bearerToken(req);
        if (token && typeof exp === 'number') verified.set(token, { sub, ver, exp });
        userFor({ sub, ver }).then((user) => done(null, user), done);
      },
    ),
  );
  return (req, res, next) => {
    const token = bearerToken(req);
    if (token && looksLikeApiKey(token)) {
      keyHolder(token).then((user) => admit(req, next, user, 'Invalid or revoked API key'), next);
      return;
    }
    const known = token ? verified.get(token) : undefined;
    if (known && unexpired(known.exp, deps.clock())) {
      userFor(known).then((user) => admit(req, next, user, 'Invalid token'), next);
      return;
    }
    if (known) verified.delete(token!); // expired: passport says so below
    authenticator.authenticate(
      'jwt',
      { session: false },
      (err: unknown, user: Express.User | false, info: unknown) => {
        if (err) return next(err);
        admit(req, next, user, describeFailure(req.headers.authorization, info));
      },
    )(req, res, next);
  };
}

/** Lets the request in as `user`, or answers 401 with `refusal` when there is none. */
function admit(
  req: { user?: Express.User },
  next: (error?: unknown) => void,
  user: Express.User | null | false,
  refusal: string,
) {
  if (!user) return next(ApiError.unauthenticated(refusal));
  req.user = user;
  next();
}

/**
 * API keys: the secret's hash is looked up in the key cache (a revocation is announced to every
 * instance when it commits), then the member who made it and its account; a key is independent of
 * the member's token version, so it outlives a password change, but it acts within the member's
 * permissions of the moment (a demotion narrows it at once) and stops with the member's removal. Hashes that name no key are remembered for a minute:
 * a client trying made-up keys costs no database read per request (nobody can guess a key before
 * it is created, so none of them can become valid in that minute).
 */
function createApiKeyCheck(deps: {
  merchants: Caches['merchants'];
  members: Caches['members'];
  apiKeys: Caches['apiKeys'];
  keyUsed: KeyUsage;
}) {
  const unknown = new LRUCache<string, true>({ max: 10_000, ttl: 60_000 });
  return async (secret: string): Promise<Express.User | false> => {
    if (!isApiKeySecret(secret)) return false;
    const hash = hashApiKeySecret(secret);
    if (unknown.has(hash)) return false;
    const key = await deps.apiKeys.get(hash);
    if (!key) {
      unknown.set(hash, true);
      return false;
    }
    if (key.revokedAt) return false;
    const maker = await memberCredential(deps, key.createdBy, null);
    if (!maker || maker.merchant.id !== key.merchantId) return false;
    deps.keyUsed(key.id);
    return { ...maker, apiKey: { id: key.id, name: key.name, scopes: key.scopes } };
  };
}

/** Instances' clocks may differ a little: a token issued this far ahead of ours is still fine. */
const CLOCK_LEEWAY_SECONDS = 60;

/** Issued (`iat`) not in the future, expiring (`exp`) at most `ttlSeconds` after it. */
function lifetimeAllowed(claims: { iat?: unknown; exp?: unknown }, ttlSeconds: number, now: Date): boolean {
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number') return false;
  return exp - iat <= ttlSeconds && iat <= now.getTime() / 1000 + CLOCK_LEEWAY_SECONDS;
}

/** As jsonwebtoken judges `exp`: a token is expired from its `exp` second on. */
function unexpired(exp: number, now: Date): boolean {
  return Math.floor(now.getTime() / 1000) < exp;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function describeFailure(header: string | undefined, info: unknown): string {
  if (!header) return 'Authentication required: send Authorization: Bearer <token>';
  if (info instanceof Error && info.name === 'TokenExpiredError') return 'Token expired: log in again';
  return 'Invalid token';
}
