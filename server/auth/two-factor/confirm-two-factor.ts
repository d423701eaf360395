import type { Deps } from '../../deps';
import { ApiError } from '../../errors';
import { replaceRecoveryCodes } from './recovery-codes';
import { takeSecondFactor } from './second-factor';
import { endChallenge } from './sign-in-challenges';

/**
 * POST /auth/two-factor/confirm: a first code of the pending secret turns two-factor on (the secret
 * moves over, sealed as it was) and gives 10 new recovery codes, shown once. Through a setup
 * token, the token ends here (the member signs in again, with a code now). The member's row is
 * dropped from this instance's cache at the commit (the others hear it announced), so the member's
 * next request here is already seen as enrolled.
 */
export async function confirmTwoFactor(
  deps: Pick<Deps, 'db' | 'clock' | 'secrets' | 'cache'>,
  member: { id: string },
  code: string,
  setupChallenge?: string,
): Promise<{ recoveryCodes: string[] }> {
  return deps.db.sequelize.transaction(async (transaction) => {
    if (!(await takeSecondFactor(deps, member.id, code, transaction, 'pending'))) {
      const [rows] = (await deps.db.sequelize.query(
        'SELECT two_factor_pending IS NOT NULL AS pending FROM members WHERE id = $id',
        { bind: { id: member.id }, transaction },
      )) as [{ pending: boolean }[], unknown];
      if (!rows[0]?.pending)
        throw ApiError.conflict('Nothing to confirm: begin with POST /auth/two-factor/enroll');
      throw ApiError.unauthenticated('Wrong code');
    }
    await deps.db.sequelize.query(
      `UPDATE members SET two_factor_secret = two_factor_pending, two_factor_pending = NULL,
              two_factor_enabled_at = $now, updated_at = now() WHERE id = $id`,
      { bind: { id: member.id, now: deps.clock() }, transaction },
    );
    const recoveryCodes = await replaceRecoveryCodes(deps, member.id, transaction);
    if (setupChallenge) await endChallenge(deps, setupChallenge, transaction);
    transaction.afterCommit(() => deps.cache.members.forget(member.id));
    return { recoveryCodes };
  });
}
