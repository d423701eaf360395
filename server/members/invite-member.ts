import { randomUUID } from 'node:crypto';
import { MAX_PENDING_INVITATIONS, type Invitation, type Locale, type Role } from '../../contract';
import type { Deps } from '../deps';
import { queueEmail } from '../emails/queue-email';
import { ApiError } from '../errors';
import { newSecretToken, secretDigest } from '../lib/secret-token';
import { emitMemberEvent } from './emit-member-event';
import { renderInvitationEmail } from './invitation-email';
import { INVITATION_COLUMNS, type MemberInvitation } from './invitation-row';
import { mayManageRole, type Manager } from './may-manage';
import { presentInvitation } from './present-member';

/** The link an invitation's token opens: the dashboard's accept page. */
export const invitationLink = (deps: Pick<Deps, 'config'>, token: string) =>
  new URL(`/dashboard/invite/${token}`, deps.config.PUBLIC_BASE_URL).toString();

/**
 * POST /members/invitations: a pending invitation, its link mailed through the outbox (in the same
 * transaction: mailed if and only if made) or, without SMTP, returned once in `link`. The account
 * row is locked so that concurrent invitations cannot pass the limit or invite one e-mail twice.
 */
export async function inviteMember(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'cache'>,
  by: Manager,
  body: { email: string; role: Role; language?: Locale },
): Promise<Invitation> {
  mayManageRole(by, body.role);
  const token = newSecretToken();
  const now = deps.clock();
  const expiresAt = new Date(now.getTime() + deps.config.INVITATION_TTL_SECONDS * 1000);
  const merchantId = by.member.merchantId;
  const row = await deps.db.sequelize.transaction(async (transaction) => {
    const q = <T>(sql: string, bind: Record<string, unknown>) =>
      deps.db.sequelize.query(sql, { bind, transaction }).then(([rows]) => rows as T[]);
    const [account] = await q<{ full_name: string | null; email: string }>(
      'SELECT full_name, email FROM merchants WHERE id = $merchantId FOR NO KEY UPDATE',
      { merchantId },
    );
    if (
      (
        await q('SELECT 1 FROM members WHERE lower(email) = lower($email) AND removed_at IS NULL', {
          email: body.email,
        })
      ).length
    )
      throw ApiError.conflict('This e-mail already belongs to an account');
    const pending = await q<{ email: string }>(
      `SELECT email FROM member_invitations
        WHERE merchant_id = $merchantId AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $now`,
      { merchantId, now },
    );
    if (pending.some((p) => p.email.toLowerCase() === body.email.toLowerCase()))
      throw ApiError.conflict('A pending invitation for this e-mail exists: revoke it first');
    if (pending.length >= MAX_PENDING_INVITATIONS)
      throw ApiError.conflict(`At most ${MAX_PENDING_INVITATIONS} invitations may be pending`);
    const [made] = await q<MemberInvitation>(
      `INSERT INTO member_invitations (id, merchant_id, email, role, token_hash, invited_by, created_at, expires_at)
       VALUES ($id, $merchantId, $email, $role, $tokenHash, $invitedBy, $now, $expiresAt)
       RETURNING ${INVITATION_COLUMNS}`,
      {
        id: randomUUID(),
        merchantId,
        email: body.email,
        role: body.role,
        tokenHash: secretDigest(token),
        invitedBy: by.member.id,
        now,
        expiresAt,
      },
    );
    const mail = renderInvitationEmail({
      language: body.language ?? 'en',
      account: account!.full_name ?? account!.email,
      inviter: by.member.name ?? by.member.email,
      role: body.role,
      link: invitationLink(deps, token),
      expiresAt,
    });
    await queueEmail(deps, transaction, {
      orderId: null,
      merchantId,
      kind: 'invitation',
      to: body.email,
      language: body.language ?? 'en',
      ...mail,
    });
    const presented = presentInvitation(made!, now);
    await emitMemberEvent(deps, transaction, {
      merchantId,
      type: 'member.invited',
      by: by.member,
      data: { invitation: presented },
    });
    return presented;
  });
  // Without SMTP nothing was mailed: the inviter is shown the link, this once.
  return deps.config.mail ? row : { ...row, link: invitationLink(deps, token) };
}
