import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZLoginResponse } from './auth';
import { ZDateTime, errors, loginOnly, publicRoute } from './common';
import {
  MAX_PENDING_INVITATIONS,
  DEFAULT_INVITATION_TTL_SECONDS,
  ZInvitation,
  ZMember,
  ZMemberId,
} from './member-shapes';
import { LOCALES } from './locales';
import { ZRole } from './permissions';
import { MIN_PASSWORD_LENGTH } from './profile';
import { merchantErrors } from './shapes';

const c = initContract();

const ZEmail = z.string().trim().toLowerCase().email().max(254);

export const ZInviteBody = z
  .object({
    email: ZEmail.describe("The invitee's e-mail: its sign-in from then on"),
    role: ZRole,
    language: z.enum(LOCALES).optional().describe("The e-mail's language (default en)"),
  })
  .strict();

export const ZChangeRoleBody = z.object({ role: ZRole }).strict();
export const ZTransferOwnershipBody = z
  .object({ memberId: ZMemberId.describe('The member who becomes the owner; you become an admin') })
  .strict();

export const ZAcceptInvitationBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024),
  })
  .strict();

export const ZInvitationPreview = z.object({
  accountName: z.string().max(200).nullable(),
  email: z.string().max(254),
  role: ZRole,
  expiresAt: ZDateTime,
});

const ZMemberParams = z.object({ id: ZMemberId.describe('The member') });
const ZInvitationParams = z.object({ id: ZMemberId.describe('The invitation') });
const ZTokenParams = z.object({
  token: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be an invitation token'),
});

export const membersContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/members',
      summary: "The account's members",
      description: 'Every member of the account (removed ones are not listed), oldest first.',
      metadata: loginOnly('account:read'),
      responses: { 200: z.object({ items: z.array(ZMember).max(1000) }), ...merchantErrors },
    },
    listInvitations: {
      method: 'GET',
      path: '/members/invitations',
      summary: "The account's invitations",
      description: 'Invitations of the last 30 days and those still pending, newest first.',
      metadata: loginOnly('members:write'),
      responses: { 200: z.object({ items: z.array(ZInvitation).max(1000) }), ...merchantErrors },
    },
    invite: {
      method: 'POST',
      path: '/members/invitations',
      summary: 'Invite someone to the account',
      description: `The invitee gets an e-mail with a link to /dashboard/invite/<token>, where it sets its name and password; the link works once, for INVITATION_TTL_SECONDS (default ${DEFAULT_INVITATION_TTL_SECONDS}, 7 days), and can be revoked. Without SMTP the answer carries the \`link\` (shown once). Inviting an owner needs ownership:write (the owner). 409 when the e-mail already belongs to an account, or a pending invitation for it exists. At most ${MAX_PENDING_INVITATIONS} pending invitations.`,
      metadata: loginOnly('members:write'),
      body: ZInviteBody,
      responses: {
        201: ZInvitation,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'CONFLICT', 'PAYLOAD_TOO_LARGE'),
      },
    },
    revokeInvitation: {
      method: 'DELETE',
      path: '/members/invitations/:id',
      summary: 'Revoke an invitation',
      description: 'Its link stops working (410). 404 for an unknown one, 409 when it is no longer pending.',
      metadata: loginOnly('members:write'),
      pathParams: ZInvitationParams,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors('UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
    },
    showInvitation: {
      method: 'GET',
      path: '/members/invitations/accept/:token',
      summary: 'What an invitation link offers (public)',
      description: 'The account, e-mail and role of a pending invitation; 410 when used, revoked or expired.',
      metadata: publicRoute,
      pathParams: ZTokenParams,
      responses: { 200: ZInvitationPreview, ...errors('NOT_FOUND', 'GONE') },
    },
    acceptInvitation: {
      method: 'POST',
      path: '/members/invitations/accept/:token',
      summary: 'Accept an invitation (public): become a member and sign in',
      description:
        "Sets the new member's name and password and answers its login token. Works once: 410 when the invitation was used, revoked or has expired; 409 when its e-mail already belongs to an account.",
      metadata: publicRoute,
      pathParams: ZTokenParams,
      body: ZAcceptInvitationBody,
      responses: {
        201: ZLoginResponse,
        ...errors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT', 'GONE', 'PAYLOAD_TOO_LARGE'),
      },
    },
    changeRole: {
      method: 'PATCH',
      path: '/members/:id',
      summary: "Change a member's role",
      description:
        "Takes effect at the member's next request on every instance; a demotion ends its tokens and sessions. An owner's role, or making an owner, needs ownership:write (the owner). The last owner cannot be demoted (409).",
      metadata: loginOnly('members:write'),
      pathParams: ZMemberParams,
      body: ZChangeRoleBody,
      responses: {
        200: ZMember,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'),
      },
    },
    remove: {
      method: 'DELETE',
      path: '/members/:id',
      summary: 'Remove a member',
      description:
        'Its tokens, sessions and API keys stop at its next request on every instance. Removing an owner needs ownership:write; the last owner cannot be removed (409).',
      metadata: loginOnly('members:write'),
      pathParams: ZMemberParams,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors('UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
    },
    transferOwnership: {
      method: 'POST',
      path: '/members/transfer-ownership',
      summary: 'Make another member the owner',
      description:
        'The member becomes the owner and you an admin (your tokens and sessions end: sign in again).',
      metadata: loginOnly('ownership:write'),
      body: ZTransferOwnershipBody,
      responses: {
        200: z.object({ items: z.array(ZMember).max(1000) }),
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'),
      },
    },
  },
  { strictStatusCodes: true },
);
