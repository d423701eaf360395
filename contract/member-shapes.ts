import { z } from 'zod';
import { ZDateTime, ZUrlOut } from './common';
import { ZRole } from './permissions';

/** INVITATION_TTL_SECONDS' default: an invitation link works for 7 days. */
export const DEFAULT_INVITATION_TTL_SECONDS = 604_800;
export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'REVOKED', 'EXPIRED'] as const;
/** At most this many invitations wait at once in an account. */
export const MAX_PENDING_INVITATIONS = 100;

export const ZMemberId = z.string().uuid().max(36);

export const ZMember = z
  .object({
    id: ZMemberId,
    email: z.string().max(254),
    name: z.string().max(200).nullable(),
    role: ZRole,
    createdAt: ZDateTime,
  })
  .describe('A person who signs in to the account');

export const ZInvitation = z
  .object({
    id: ZMemberId,
    email: z.string().max(254),
    role: ZRole,
    status: z.enum(INVITATION_STATUSES),
    expiresAt: ZDateTime,
    createdAt: ZDateTime,
    link: ZUrlOut.optional().describe(
      'The invitation link (/dashboard/invite/<token>): only in the answer that made it, and only when no SMTP server is configured to mail it',
    ),
  })
  .describe('An invitation to join the account');

export type Member = z.infer<typeof ZMember>;
export type Invitation = z.infer<typeof ZInvitation>;
