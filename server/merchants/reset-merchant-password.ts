import { Sequelize } from 'sequelize';
import type { Models } from '../db/models';
import { hashPassword } from '../auth/passwords';
import { checkPassword, MerchantInputError } from './create-merchant';

/** Sets a new password and invalidates every token issued before. */
export async function resetMerchantPassword(models: Models, input: { email: string; password: string }) {
  checkPassword(input.password);
  const byEmail = Sequelize.where(
    Sequelize.fn('lower', Sequelize.col('email')),
    input.email.trim().toLowerCase(),
  );
  const merchant = await models.Merchant.findOne({ where: byEmail });
  if (!merchant) throw new MerchantInputError(`no merchant with e-mail ${input.email}`);
  // The version is bumped in SQL, not from the value read: a concurrent change cannot undo it.
  await models.Merchant.update(
    {
      passwordHash: await hashPassword(input.password),
      tokenVersion: Sequelize.literal('token_version + 1'),
      updatedAt: new Date(),
    },
    { where: { id: merchant.id } },
  );
  return merchant.reload();
}
