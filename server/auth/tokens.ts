import jwt from 'jsonwebtoken';

export type TokenClaims = { sub: string; ver: number };

export type TokenIssuer = {
  issue(merchant: { id: string; tokenVersion: number }): { token: string; expiresAt: Date };
  readonly secret: string;
  /** JWT_TTL in seconds: no token may live longer (server/auth/passport.ts refuses it). */
  readonly ttlSeconds: number;
};

const ISSUER = 'stablepay';
export const JWT_ALGORITHM = 'HS256' as const;

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** JWT_TTL (`<number><s|m|h|d>`, as config.ts checks it) in seconds. */
export function ttlSeconds(ttl: string): number {
  const match = /^(\d+)([smhd])$/.exec(ttl);
  if (!match) throw new RangeError(`JWT_TTL "${ttl}" is not a number followed by s, m, h or d`);
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

/** HS256 tokens. `ver` is the merchant's token version: a password change invalidates older tokens. */
export function createTokenIssuer(
  secret: string,
  ttl: string,
  clock: () => Date = () => new Date(),
): TokenIssuer {
  const lifetime = ttlSeconds(ttl);
  return {
    secret,
    ttlSeconds: lifetime,
    issue(merchant) {
      const now = Math.floor(clock().getTime() / 1000);
      const token = jwt.sign({ ver: merchant.tokenVersion, iat: now, exp: now + lifetime }, secret, {
        algorithm: JWT_ALGORITHM,
        subject: merchant.id,
        issuer: ISSUER,
      });
      return { token, expiresAt: new Date((now + lifetime) * 1000) };
    },
  };
}
export const TOKEN_ISSUER = ISSUER;
