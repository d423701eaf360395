import type { Deps } from '../deps';
import { ApiError } from '../errors';

/** DELETE /members/invitations/{id}: the link stops working. Only a pending one of the account. */
export async function revokeInvitation(deps: Pick<Deps, 'db' | 'clock'>, merchantId: string, id: string) {
  const now = deps.clock();
  const [rows] = (await deps.db.sequelize.query(
    `WITH found AS (SELECT id, accepted_at, revoked_at, expires_at FROM member_invitations
                     WHERE id = $id AND merchant_id = $merchantId FOR UPDATE),
          revoked AS (UPDATE member_invitations i SET revoked_at = $now FROM found
                       WHERE i.id = found.id AND found.accepted_at IS NULL AND found.revoked_at IS NULL
                         AND found.expires_at > $now RETURNING i.id)
     SELECT (SELECT count(*) FROM found) AS found, (SELECT count(*) FROM revoked) AS revoked`,
    { bind: { id, merchantId, now } },
  )) as [{ found: string; revoked: string }[], unknown];
  if (Number(rows[0]!.found) === 0) throw ApiError.notFound('Invitation');
  if (Number(rows[0]!.revoked) === 0) throw ApiError.conflict('The invitation is no longer pending');
}
