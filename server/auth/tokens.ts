import jwt from 'jsonwebtoken';

export type TokenClaims = { sub: string; ver: number };

export type TokenIssuer = {
  issue(merchant: { id: string; tokenVersion: number }): { token: string; expiresAt: Date };
  readonly secret: string;
};

const ISSUER = 'stablepay';
export const JWT_ALGORITHM = 'HS256' as const;

/** HS256 tokens. `ver` is the merchant's token version: a password change invalidates older tokens. */
export function createTokenIssuer(
  secret: string,
  ttl: string,
  clock: () => Date = () => new Date(),
): TokenIssuer {
  return {
    secret,
    issue(merchant) {
      const now = Math.floor(clock().getTime() / 1000);
      const token = jwt.sign({ ver: merchant.tokenVersion, iat: now }, secret, {
        algorithm: JWT_ALGORITHM,
        subject: merchant.id,
        issuer: ISSUER,
        expiresIn: ttl as jwt.SignOptions['expiresIn'],
      });
      const { exp } = jwt.decode(token) as { exp: number };
      return { token, expiresAt: new Date(exp * 1000) };
    },
  };
}
export const TOKEN_ISSUER = ISSUER;
