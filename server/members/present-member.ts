import type { Invitation, Member } from '../../contract';
import type { MemberRow } from '../db/caches';
import type { MemberInvitation } from './invitation-row';

export const presentMember = (
  m: Pick<MemberRow, 'id' | 'email' | 'name' | 'role' | 'createdAt'>,
): Member => ({
  id: m.id,
  email: m.email,
  name: m.name,
  role: m.role,
  createdAt: m.createdAt.toISOString(),
});

/** An invitation as the API shows it: its status read from its dates at `now`. */
export const presentInvitation = (row: MemberInvitation, now: Date): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  status: row.accepted_at
    ? 'ACCEPTED'
    : row.revoked_at
      ? 'REVOKED'
      : row.expires_at.getTime() <= now.getTime()
        ? 'EXPIRED'
        : 'PENDING',
  expiresAt: row.expires_at.toISOString(),
  createdAt: row.created_at.toISOString(),
});
