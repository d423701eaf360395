import { Sequelize } from 'sequelize';
import type { Merchant } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { decoyPasswordHash, verifyPassword } from './passwords';

/**
 * The merchant whose e-mail and password these are. Same answer, and about the same time, for an
 * unknown e-mail and a wrong password.
 */
export async function checkCredentials(
  deps: Pick<Deps, 'db'>,
  input: { email: string; password: string },
): Promise<Merchant> {
  const { Merchant } = deps.db.models;
  const merchant = await Merchant.findOne({
    where: Sequelize.where(Sequelize.fn('lower', Sequelize.col('email')), input.email.toLowerCase()),
  });
  const ok = await verifyPassword(merchant?.passwordHash ?? (await decoyPasswordHash()), input.password);
  if (!merchant || !ok) throw ApiError.unauthenticated('Invalid e-mail or password');
  return merchant;
}

/** POST /auth/login: a login token for the merchant. */
export async function login(deps: Pick<Deps, 'db' | 'tokens'>, input: { email: string; password: string }) {
  const merchant = await checkCredentials(deps, input);
  const { token, expiresAt } = deps.tokens.issue(merchant);
  return { token, tokenType: 'Bearer' as const, expiresAt: expiresAt.toISOString() };
}
