import { ApiError } from '../errors';
import type { Merchant } from '../db/models';
import type { Deps } from '../deps';
import { hashPassword, verifyPassword } from '../auth/passwords';

/** Bumps the token version in the same write: every token issued before stops working. */
export async function changePassword(
  deps: Pick<Deps, 'clock'>,
  merchant: Merchant,
  input: { current_password: string; new_password: string },
) {
  if (!(await verifyPassword(merchant.passwordHash, input.current_password)))
    throw ApiError.field('body.current_password', 'does not match the current password');
  if (input.new_password === input.current_password)
    throw ApiError.field('body.new_password', 'must differ from the current password');
  merchant.passwordHash = await hashPassword(input.new_password);
  merchant.tokenVersion += 1;
  merchant.updatedAt = deps.clock();
  await merchant.save();
}
