import type { Transaction } from 'sequelize';
import type { Role } from '../../contract';
import type { MemberRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/**
 * The account's members still in it, locked (FOR UPDATE) for a change of roles or membership: two
 * changes at once are made one after the other, so they cannot together remove the last owner.
 */
export async function lockMembers(deps: Pick<Deps, 'db'>, merchantId: string, transaction: Transaction) {
  const rows = (await deps.db.models.Member.findAll({
    where: { merchantId, removedAt: null },
    lock: transaction.LOCK.UPDATE,
    transaction,
    raw: true,
  })) as MemberRow[];
  return {
    rows,
    /** The member `id` of the account, or 404. */
    find(id: string): MemberRow {
      const found = rows.find((m) => m.id === id);
      if (!found) throw ApiError.notFound('Member');
      return found;
    },
    /** 409 when the change would leave the account without an owner. */
    keepAnOwner(target: MemberRow, newRole: Role | null) {
      if (target.role !== 'owner' || newRole === 'owner') return;
      if (rows.filter((m) => m.role === 'owner').length <= 1)
        throw ApiError.conflict('The last owner cannot be removed or demoted: transfer the ownership first');
    },
  };
}

/** Sets a member's columns; a demotion or removal bumps its token version (its tokens and sessions end). */
export async function updateMember(
  deps: Pick<Deps, 'db' | 'clock' | 'cache'>,
  transaction: Transaction,
  member: MemberRow,
  change: { role?: Role; removedAt?: Date; endSessions: boolean },
) {
  await deps.db.models.Member.update(
    {
      ...(change.role ? { role: change.role } : {}),
      ...(change.removedAt ? { removedAt: change.removedAt } : {}),
      ...(change.endSessions ? { tokenVersion: member.tokenVersion + 1 } : {}),
      updatedAt: deps.clock(),
    },
    { where: { id: member.id }, transaction },
  );
  if (change.endSessions)
    await deps.db.sequelize.query('DELETE FROM dashboard_sessions WHERE member_id = $id', {
      bind: { id: member.id },
      transaction,
    });
  transaction.afterCommit(() => deps.cache.members.forget(member.id));
}
