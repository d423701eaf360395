import { UniqueConstraintError } from 'sequelize';
import { MIN_PASSWORD_LENGTH, ZLoginBody, ZUpdateProfileBody } from '../../contract';
import type { Models } from '../db/models';
import { hashPassword } from '../auth/passwords';

export class MerchantInputError extends Error {}

/** The longest password POST /auth/login and POST /users/me/password accept. */
export const MAX_PASSWORD_LENGTH = 1024;

/** Passwords the API could accept at login: a CLI-made account must be able to log in. */
export function checkPassword(password: string) {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new MerchantInputError(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw new MerchantInputError(`password must be at most ${MAX_PASSWORD_LENGTH} characters`);
}

/**
 * Accounts are created outside the API (merchant:create); the rules match the API's. The account
 * comes with its owner member (the same id, e-mail and password), in one transaction; an e-mail
 * already a member's anywhere is refused, as the members' unique index would.
 */
export async function createMerchant(
  models: Models,
  input: { email: string; password: string; name?: string },
) {
  // The login route's own rule: an address it would refuse could never log in.
  const email = ZLoginBody.shape.email.safeParse(input.email);
  if (!email.success) throw new MerchantInputError(`not an e-mail address: ${input.email.trim()}`);
  checkPassword(input.password);
  const name = input.name?.trim() || null;
  if (name !== null && !ZUpdateProfileBody.shape.full_name.safeParse(name).success)
    throw new MerchantInputError('name must be at most 200 characters');
  const passwordHash = await hashPassword(input.password);
  try {
    return await models.Merchant.sequelize!.transaction(async (transaction) => {
      const merchant = await models.Merchant.create({ email: email.data, fullName: name }, { transaction });
      await models.Member.create(
        { id: merchant.id, merchantId: merchant.id, email: email.data, name, passwordHash, role: 'owner' },
        { transaction },
      );
      return merchant;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError)
      throw new MerchantInputError(`a merchant with e-mail ${email.data} already exists`);
    throw error;
  }
}
