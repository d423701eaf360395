import type { MemberRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { hashPassword, verifyPassword } from '../auth/passwords';

/**
 * The member's own password. Bumps its token version in the same write: every token and session
 * of the member issued before stops working.
 * The write is conditional on the version the request was authenticated with, so two concurrent
 * changes (or a change racing `merchant:reset-password`) cannot both win, nor leave a token alive
 * that a change should have ended: the loser gets 401 like any other stale token.
 */
export async function changePassword(
  deps: Pick<Deps, 'db' | 'clock' | 'cache'>,
  member: MemberRow,
  input: { current_password: string; new_password: string },
) {
  if (!(await verifyPassword(member.passwordHash, input.current_password)))
    throw ApiError.field('body.current_password', 'does not match the current password');
  if (input.new_password === input.current_password)
    throw ApiError.field('body.new_password', 'must differ from the current password');
  const passwordHash = await hashPassword(input.new_password);
  const [changed] = await deps.db.models.Member.update(
    { passwordHash, tokenVersion: member.tokenVersion + 1, updatedAt: deps.clock() },
    { where: { id: member.id, tokenVersion: member.tokenVersion, removedAt: null } },
  );
  deps.cache.members.forget(member.id);
  if (changed !== 1) throw ApiError.unauthenticated('Token is no longer valid: log in again');
}
