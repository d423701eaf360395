import { UniqueConstraintError } from 'sequelize';
import { MIN_PASSWORD_LENGTH } from '../../contract';
import type { Models } from '../db/models';
import { hashPassword } from '../auth/passwords';

export class MerchantInputError extends Error {}

/** Accounts are created outside the API (merchant:create); the rules match the API's. */
export async function createMerchant(
  models: Models,
  input: { email: string; password: string; name?: string },
) {
  const email = input.email.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
    throw new MerchantInputError(`not an e-mail address: ${email}`);
  if (input.password.length < MIN_PASSWORD_LENGTH)
    throw new MerchantInputError(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  try {
    return await models.Merchant.create({
      email,
      passwordHash: await hashPassword(input.password),
      fullName: input.name?.trim() || null,
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError)
      throw new MerchantInputError(`a merchant with e-mail ${email} already exists`);
    throw error;
  }
}
