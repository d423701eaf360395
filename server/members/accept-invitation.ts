import { randomUUID } from 'node:crypto';
import { UniqueConstraintError } from 'sequelize';
import { hashPassword } from '../auth/passwords';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { emitMemberEvent } from './emit-member-event';
import { pendingInvitation } from './find-invitation';
import { presentMember } from './present-member';

/**
 * POST /members/invitations/accept/{token}: the invitee becomes a member with its name and
 * password, and is signed in. The invitation is locked and marked used in the same transaction:
 * two tries at once make one member (the other gets 410). 409 when the e-mail joined an account
 * meanwhile (the members' unique index decides).
 */
export async function acceptInvitation(
  deps: Pick<Deps, 'db' | 'clock' | 'cache' | 'tokens'>,
  token: string,
  body: { name: string; password: string },
) {
  // A token that names no pending invitation costs no password hash (64 MiB of argon2id).
  await pendingInvitation(deps, token);
  const passwordHash = await hashPassword(body.password);
  const member = await deps.db.sequelize
    .transaction(async (transaction) => {
      const invitation = await pendingInvitation(deps, token, transaction);
      const now = deps.clock();
      await deps.db.sequelize.query('UPDATE member_invitations SET accepted_at = $now WHERE id = $id', {
        bind: { id: invitation.id, now },
        transaction,
      });
      const made = await deps.db.models.Member.create(
        {
          id: randomUUID(),
          merchantId: invitation.merchant_id,
          email: invitation.email,
          name: body.name,
          passwordHash,
          role: invitation.role,
          createdAt: now,
          updatedAt: now,
        },
        { transaction },
      );
      const row = made.get({ plain: true });
      await emitMemberEvent(deps, transaction, {
        merchantId: invitation.merchant_id,
        type: 'member.joined',
        by: row,
        data: { member: presentMember(row) },
      });
      return row;
    })
    .catch((error: unknown) => {
      if (error instanceof UniqueConstraintError)
        throw ApiError.conflict('This e-mail already belongs to an account');
      throw error;
    });
  const { token: login, expiresAt } = deps.tokens.issue(member);
  return { token: login, tokenType: 'Bearer' as const, expiresAt: expiresAt.toISOString() };
}
