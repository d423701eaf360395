import type { Deps } from '../deps';
import { lockMembers, updateMember } from './account-members';
import { emitMemberEvent } from './emit-member-event';
import { mayManageRole, type Manager } from './may-manage';
import { presentMember } from './present-member';

/**
 * DELETE /members/{id}: the member leaves the account. Its tokens, sessions and API keys stop at
 * its next request on every instance (its keys are revoked too, so the key list says so).
 */
export async function removeMember(deps: Pick<Deps, 'db' | 'clock' | 'cache'>, by: Manager, id: string) {
  await deps.db.sequelize.transaction(async (transaction) => {
    const members = await lockMembers(deps, by.member.merchantId, transaction);
    const target = members.find(id);
    mayManageRole(by, target.role);
    members.keepAnOwner(target, null);
    const now = deps.clock();
    await updateMember(deps, transaction, target, { removedAt: now, endSessions: true });
    await deps.db.sequelize.query(
      'UPDATE api_keys SET revoked_at = $now WHERE created_by = $id AND revoked_at IS NULL',
      { bind: { id, now }, transaction },
    );
    await emitMemberEvent(deps, transaction, {
      merchantId: target.merchantId,
      type: 'member.removed',
      by: by.member,
      data: { member: presentMember(target) },
    });
  });
}
