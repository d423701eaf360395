import type { Deps } from '../deps';
import { INVITATION_COLUMNS, type MemberInvitation } from './invitation-row';
import { presentInvitation } from './present-member';

/** GET /members/invitations: those still pending and those of the last 30 days, newest first. */
export async function listInvitations(deps: Pick<Deps, 'db' | 'clock'>, merchantId: string) {
  const now = deps.clock();
  const [rows] = (await deps.db.sequelize.query(
    `SELECT ${INVITATION_COLUMNS} FROM member_invitations
      WHERE merchant_id = $merchantId
        AND (created_at > CAST($since AS timestamptz)
             OR (accepted_at IS NULL AND revoked_at IS NULL AND expires_at > CAST($now AS timestamptz)))
      ORDER BY created_at DESC, id DESC LIMIT 1000`,
    { bind: { merchantId, now, since: new Date(now.getTime() - 30 * 86_400_000) } },
  )) as [MemberInvitation[], unknown];
  return rows.map((row) => presentInvitation(row, now));
}
