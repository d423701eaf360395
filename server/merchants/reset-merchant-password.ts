import { Sequelize } from 'sequelize';
import { MIN_PASSWORD_LENGTH } from '../../contract';
import type { Models } from '../db/models';
import { hashPassword } from '../auth/passwords';
import { MerchantInputError } from './create-merchant';

/** Sets a new password and invalidates every token issued before. */
export async function resetMerchantPassword(models: Models, input: { email: string; password: string }) {
  if (input.password.length < MIN_PASSWORD_LENGTH)
    throw new MerchantInputError(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const merchant = await models.Merchant.findOne({
    where: Sequelize.where(Sequelize.fn('lower', Sequelize.col('email')), input.email.trim().toLowerCase()),
  });
  if (!merchant) throw new MerchantInputError(`no merchant with e-mail ${input.email}`);
  merchant.passwordHash = await hashPassword(input.password);
  merchant.tokenVersion += 1;
  merchant.updatedAt = new Date();
  await merchant.save();
  return merchant;
}
