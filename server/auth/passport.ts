import { createSecretKey } from 'node:crypto';
import type { RequestHandler } from 'express';
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { ApiError } from '../errors';
import type { Caches, MerchantRow } from '../db/caches';
import { JWT_ALGORITHM, TOKEN_ISSUER, type TokenClaims } from './tokens';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface User {
      /** As the instance remembers it: a plain row, shared, never to be changed in place. */
      merchant: MerchantRow;
    }
  }
}

/**
 * The JWT check: HS256 only (no `alg: none`, no algorithm confusion), issuer and expiry checked by
 * passport-jwt, then the merchant must exist and the token's version match the current one. The
 * merchant comes from the cache: a password change or reset reaches it when it commits (at once
 * on this instance, within the announcement's delay on the others).
 */
export function createAuthenticator(
  secret: string,
  deps: { merchants: Caches['merchants'] },
): RequestHandler {
  const authenticator = new passport.Passport();
  authenticator.use(
    new JwtStrategy(
      {
        jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
        // A KeyObject, made once: given a string, jsonwebtoken first tries (and fails) to read it as a
        // public key on every request, which cost more than the rest of the check.
        secretOrKey: createSecretKey(Buffer.from(secret, 'utf8')) as unknown as string,
        algorithms: [JWT_ALGORITHM],
        issuer: TOKEN_ISSUER,
      },
      (claims: Partial<TokenClaims>, done: (err: unknown, user?: Express.User | false) => void) => {
        if (typeof claims.sub !== 'string' || !UUID.test(claims.sub) || typeof claims.ver !== 'number')
          return done(null, false);
        deps.merchants
          .get(claims.sub)
          .then((row) => done(null, row && row.tokenVersion === claims.ver ? { merchant: row } : false))
          .catch(done);
      },
    ),
  );
  return (req, res, next) => {
    authenticator.authenticate(
      'jwt',
      { session: false },
      (err: unknown, user: Express.User | false, info: unknown) => {
        if (err) return next(err);
        if (!user) return next(ApiError.unauthenticated(describeFailure(req.headers.authorization, info)));
        req.user = user;
        next();
      },
    )(req, res, next);
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function describeFailure(header: string | undefined, info: unknown): string {
  if (!header) return 'Authentication required: send Authorization: Bearer <token>';
  if (info instanceof Error && info.name === 'TokenExpiredError') return 'Token expired: log in again';
  return 'Invalid token';
}
