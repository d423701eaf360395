import type { Member } from '../../db/models';
import type { Deps } from '../../deps';
import { ApiError } from '../../errors';
import { takeSecondFactor } from './second-factor';
import { endChallenge, findChallenge, issueChallenge, type ChallengePurpose } from './sign-in-challenges';

/** What a correct password leads to when it is not the credential yet. */
export type StepBeforeCredential =
  { mfaRequired: true; mfaToken: string } | { twoFactorSetupRequired: true; setupToken: string };

/**
 * After the password: a member with two-factor is asked for a code (an mfaToken for `purpose`); in
 * an account that requires two-factor, a member without it is sent to enrol (a setupToken);
 * otherwise null, and the caller hands out the credential.
 */
export async function stepAfterPassword(
  deps: Pick<Deps, 'db' | 'clock' | 'cache'>,
  member: Pick<Member, 'id' | 'merchantId' | 'tokenVersion' | 'twoFactorEnabledAt'>,
  purpose: Exclude<ChallengePurpose, 'setup'>,
): Promise<StepBeforeCredential | null> {
  if (member.twoFactorEnabledAt)
    return { mfaRequired: true, mfaToken: await issueChallenge(deps, member, purpose) };
  const merchant = await deps.cache.merchants.get(member.merchantId);
  if (merchant?.requireTwoFactor)
    return { twoFactorSetupRequired: true, setupToken: await issueChallenge(deps, member, 'setup') };
  return null;
}

const expired = () => ApiError.unauthenticated('The sign-in step has expired or was used: sign in again');

/**
 * The second step: the mfaToken of `purpose` and a code. `limit` is called with the member before
 * the code is looked at (codes are counted per member like passwords; it throws a 429). The token
 * is locked while its code is checked and deleted with a success: it gives one credential.
 * Answers the member (as it is now: a password changed since the first step ends the token).
 */
export async function passSecondStep(
  deps: Pick<Deps, 'db' | 'clock' | 'secrets'>,
  input: { mfaToken: string; code: string },
  purpose: Exclude<ChallengePurpose, 'setup'>,
  limit: (memberId: string) => Promise<void>,
): Promise<Member> {
  const seen = await findChallenge(deps, input.mfaToken, purpose);
  if (!seen) throw expired();
  await limit(seen.memberId);
  return deps.db.sequelize.transaction(async (transaction) => {
    const challenge = await findChallenge(deps, input.mfaToken, purpose, transaction);
    if (!challenge) throw expired();
    const member = await deps.db.models.Member.findByPk(challenge.memberId, { transaction });
    if (!member || member.removedAt || member.tokenVersion !== challenge.tokenVersion) throw expired();
    if (!(await takeSecondFactor(deps, member.id, input.code, transaction)))
      throw ApiError.unauthenticated('Wrong code');
    await endChallenge(deps, challenge.id, transaction);
    return member;
  });
}
