import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { lockMembers, updateMember } from './account-members';
import { emitMemberEvent } from './emit-member-event';
import type { Manager } from './may-manage';
import { presentMember } from './present-member';

/**
 * POST /members/transfer-ownership (the owner only, by its permission): the member becomes the
 * owner and the owner an admin, whose tokens and sessions end (a demotion). Answers the members.
 */
export async function transferOwnership(
  deps: Pick<Deps, 'db' | 'clock' | 'cache'>,
  by: Manager,
  memberId: string,
) {
  return deps.db.sequelize.transaction(async (transaction) => {
    const members = await lockMembers(deps, by.member.merchantId, transaction);
    const target = members.find(memberId);
    const self = members.find(by.member.id);
    if (target.id === self.id) throw ApiError.conflict('You are the owner already');
    await updateMember(deps, transaction, target, { role: 'owner', endSessions: false });
    await updateMember(deps, transaction, self, { role: 'admin', endSessions: true });
    for (const [member, role] of [
      [target, 'owner'],
      [self, 'admin'],
    ] as const)
      await emitMemberEvent(deps, transaction, {
        merchantId: member.merchantId,
        type: 'member.role_changed',
        by: by.member,
        data: { member: presentMember({ ...member, role }), previousRole: member.role },
      });
    return members.rows.map((m) =>
      presentMember(
        m.id === target.id ? { ...m, role: 'owner' } : m.id === self.id ? { ...m, role: 'admin' } : m,
      ),
    );
  });
}
