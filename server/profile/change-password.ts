import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { hashPassword, verifyPassword } from '../auth/passwords';

/**
 * Bumps the token version in the same write: every token issued before stops working.
 * The write is conditional on the version the request was authenticated with, so two concurrent
 * changes (or a change racing `merchant:reset-password`) cannot both win, nor leave a token alive
 * that a change should have ended: the loser gets 401 like any other stale token.
 */
export async function changePassword(
  deps: Pick<Deps, 'db' | 'clock' | 'cache'>,
  merchant: MerchantRow,
  input: { current_password: string; new_password: string },
) {
  if (!(await verifyPassword(merchant.passwordHash, input.current_password)))
    throw ApiError.field('body.current_password', 'does not match the current password');
  if (input.new_password === input.current_password)
    throw ApiError.field('body.new_password', 'must differ from the current password');
  const passwordHash = await hashPassword(input.new_password);
  const [changed] = await deps.db.models.Merchant.update(
    { passwordHash, tokenVersion: merchant.tokenVersion + 1, updatedAt: deps.clock() },
    { where: { id: merchant.id, tokenVersion: merchant.tokenVersion } },
  );
  deps.cache.merchants.forget(merchant.id);
  if (changed !== 1) throw ApiError.unauthenticated('Token is no longer valid: log in again');
}
