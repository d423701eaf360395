import { Sequelize } from 'sequelize';
import type { Member, Models } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { decoyPasswordHash, verifyPassword } from './passwords';
import { stepAfterPassword } from './two-factor/sign-in-steps';

/** The member (not removed) an e-mail names, whatever its case. */
export function memberByEmail(models: Pick<Models, 'Member'>, email: string): Promise<Member | null> {
  return models.Member.findOne({
    where: Sequelize.and(
      Sequelize.where(Sequelize.fn('lower', Sequelize.col('email')), email.trim().toLowerCase()),
      { removedAt: null },
    ),
  });
}

/**
 * The member whose e-mail and password these are (a removed member has none). Same answer, and
 * about the same time, for an unknown e-mail and a wrong password.
 */
export async function checkCredentials(
  deps: Pick<Deps, 'db'>,
  input: { email: string; password: string },
): Promise<Member> {
  const member = await memberByEmail(deps.db.models, input.email);
  const ok = await verifyPassword(member?.passwordHash ?? (await decoyPasswordHash()), input.password);
  if (!member || !ok) throw ApiError.unauthenticated('Invalid e-mail or password');
  return member;
}

/** A login token for the member (its subject the member's id), as the login routes answer it. */
export function loginToken(deps: Pick<Deps, 'tokens'>, member: { id: string; tokenVersion: number }) {
  const { token, expiresAt } = deps.tokens.issue(member);
  return { token, tokenType: 'Bearer' as const, expiresAt: expiresAt.toISOString() };
}

/**
 * POST /auth/login: a login token for the member, or the step before it (a code, or enrolment
 * when the account requires two-factor and the member has none).
 */
export async function login(
  deps: Pick<Deps, 'db' | 'tokens' | 'clock' | 'cache'>,
  input: { email: string; password: string },
) {
  const member = await checkCredentials(deps, input);
  return (await stepAfterPassword(deps, member, 'token')) ?? loginToken(deps, member);
}
