import type { Role } from '../../contract';

/** A member_invitations row (migration 0030), as the queries here read it. */
export type MemberInvitation = {
  id: string;
  merchant_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
};

export const INVITATION_COLUMNS =
  'id, merchant_id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at';
