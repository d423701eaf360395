import type { Deps } from '../../deps';
import { ApiError } from '../../errors';
import { takeSecondFactor } from './second-factor';

/**
 * POST /auth/two-factor/disable: with a code (TOTP or recovery), the secret and the recovery codes
 * are deleted. Refused when the account requires two-factor sign-in. The member's row is dropped
 * from this instance's cache at the commit (the others hear it announced).
 */
export async function disableTwoFactor(
  deps: Pick<Deps, 'db' | 'clock' | 'secrets' | 'cache'>,
  member: { id: string },
  merchant: { requireTwoFactor: boolean },
  code: string,
): Promise<void> {
  if (merchant.requireTwoFactor)
    throw ApiError.conflict('The account requires two-factor sign-in: it cannot be turned off');
  await deps.db.sequelize.transaction(async (transaction) => {
    if (!(await takeSecondFactor(deps, member.id, code, transaction)))
      throw ApiError.unauthenticated('Wrong code');
    await deps.db.sequelize.query(
      `UPDATE members SET two_factor_secret = NULL, two_factor_pending = NULL, two_factor_enabled_at = NULL,
              updated_at = now() WHERE id = $id`,
      { bind: { id: member.id }, transaction },
    );
    await deps.db.sequelize.query('DELETE FROM member_recovery_codes WHERE member_id = $id', {
      bind: { id: member.id },
      transaction,
    });
    transaction.afterCommit(() => deps.cache.members.forget(member.id));
  });
}
