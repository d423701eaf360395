import { Sequelize } from 'sequelize';
import type { Models } from '../db/models';
import { memberByEmail } from '../auth/login';
import { hashPassword } from '../auth/passwords';
import { checkPassword, MerchantInputError } from './create-merchant';

/** Sets a member's new password (an owner's, usually) and invalidates every token issued before. */
export async function resetMerchantPassword(models: Models, input: { email: string; password: string }) {
  checkPassword(input.password);
  const member = await memberByEmail(models, input.email);
  if (!member) throw new MerchantInputError(`no member with e-mail ${input.email}`);
  // The version is bumped in SQL, not from the value read: a concurrent change cannot undo it.
  await models.Member.update(
    {
      passwordHash: await hashPassword(input.password),
      tokenVersion: Sequelize.literal('token_version + 1'),
      updatedAt: new Date(),
    },
    { where: { id: member.id } },
  );
  return member.reload();
}
