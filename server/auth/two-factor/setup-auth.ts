import type { Request } from 'express';
import type { Caches } from '../../db/caches';
import type { Deps } from '../../deps';
import { ApiError } from '../../errors';
import { memberCredential } from '../member-credential';
import { findChallenge, isSetupToken } from './sign-in-challenges';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface User {
      /** The setup challenge whose token opened the request: enrolment alone (contract/two-factor.ts). */
      twoFactorSetup?: string;
    }
  }
}

/** The setup token a request carries as its bearer token, if it is one. */
export function setupTokenOf(req: Pick<Request, 'headers'>): string | undefined {
  const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  return match && isSetupToken(match[1]!) ? match[1] : undefined;
}

/**
 * A setup token as a credential, on the routes that take one (`setupToken` in their metadata): the
 * member it was given to, while the token is open and the member's token version unchanged.
 */
export async function setupCredential(
  deps: Pick<Deps, 'db' | 'clock'> & Pick<Caches, 'members' | 'merchants'>,
  secret: string,
): Promise<Express.User> {
  const challenge = await findChallenge(deps, secret, 'setup');
  const found = challenge && (await memberCredential(deps, challenge.memberId, challenge.tokenVersion, true));
  if (!challenge || !found) throw ApiError.unauthenticated('The setup token has expired: sign in again');
  return { ...found, apiKey: null, twoFactorSetup: challenge.id };
}
