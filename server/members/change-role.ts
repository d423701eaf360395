import { roleCovers, type Member, type Role } from '../../contract';
import type { Deps } from '../deps';
import { lockMembers, updateMember } from './account-members';
import { emitMemberEvent } from './emit-member-event';
import { mayManageRole, type Manager } from './may-manage';
import { presentMember } from './present-member';

/**
 * PATCH /members/{id}: the member's new role counts at its next request on every instance (the
 * change is announced when it commits); a demotion also ends its tokens and sessions.
 */
export async function changeRole(
  deps: Pick<Deps, 'db' | 'clock' | 'cache'>,
  by: Manager,
  id: string,
  role: Role,
): Promise<Member> {
  return deps.db.sequelize.transaction(async (transaction) => {
    const members = await lockMembers(deps, by.member.merchantId, transaction);
    const target = members.find(id);
    mayManageRole(by, target.role, role);
    if (target.role === role) return presentMember(target);
    members.keepAnOwner(target, role);
    await updateMember(deps, transaction, target, { role, endSessions: !roleCovers(role, target.role) });
    const changed = presentMember({ ...target, role });
    await emitMemberEvent(deps, transaction, {
      merchantId: target.merchantId,
      type: 'member.role_changed',
      by: by.member,
      data: { member: changed, previousRole: target.role },
    });
    return changed;
  });
}
