import type { Transaction } from 'sequelize';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { secretDigest } from '../lib/secret-token';
import { INVITATION_COLUMNS, type MemberInvitation } from './invitation-row';

/**
 * The pending invitation a link's token names (locked, inside a transaction): 404 for a token no
 * invitation has, 410 once it was used, revoked or has expired.
 */
export async function pendingInvitation(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
  transaction?: Transaction,
): Promise<MemberInvitation & { account_name: string | null }> {
  const [rows] = (await deps.db.sequelize.query(
    `SELECT ${INVITATION_COLUMNS.split(', ')
      .map((c) => `i.${c}`)
      .join(', ')}, m.full_name AS account_name
       FROM member_invitations i JOIN merchants m ON m.id = i.merchant_id
      WHERE i.token_hash = $hash ${transaction ? 'FOR UPDATE OF i' : ''}`,
    { bind: { hash: secretDigest(token) }, transaction },
  )) as [(MemberInvitation & { account_name: string | null })[], unknown];
  const row = rows[0];
  if (!row) throw ApiError.notFound('Invitation');
  if (row.accepted_at) throw ApiError.gone('This invitation was already used');
  if (row.revoked_at) throw ApiError.gone('This invitation was revoked');
  if (row.expires_at.getTime() <= deps.clock().getTime()) throw ApiError.gone('This invitation has expired');
  return row;
}

/** GET /members/invitations/accept/{token}: what the link offers. */
export async function showInvitation(deps: Pick<Deps, 'db' | 'clock'>, token: string) {
  const row = await pendingInvitation(deps, token);
  return {
    accountName: row.account_name,
    email: row.email,
    role: row.role,
    expiresAt: row.expires_at.toISOString(),
  };
}
