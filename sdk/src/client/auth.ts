import type { Role } from '../../../contract';
import { byId, segment, success, type ClientContext } from './core';
import type {
  AcceptInvitationParams,
  ApiKeyList,
  CreateApiKeyParams,
  CreatedApiKey,
  Invitation,
  InvitationPreview,
  InviteParams,
  LoginAnswer,
  LoginBody,
  LoginMfaBody,
  LoginResponse,
  Member,
  TwoFactorEnrolment,
  TwoFactorStatus,
} from './types';

export interface AuthApi {
  /**
   * POST /auth/login. The client keeps the token for later calls when it has none yet. A member
   * with two-factor gets `{mfaRequired, mfaToken}` (then loginMfa()); in an account requiring
   * it, a member without gets `{twoFactorSetupRequired, setupToken}` (twoFactor.enroll() and
   * confirm() with it, then log in again).
   */
  login(body: LoginBody): Promise<LoginAnswer>;
  /** POST /auth/login/mfa: the mfaToken and a code (TOTP or recovery); the token is kept as login()'s. */
  loginMfa(body: LoginMfaBody): Promise<LoginResponse>;
}

export interface TwoFactorApi {
  /** GET /auth/two-factor: whether the member uses it, its recovery codes left, whether the account requires it. */
  status(): Promise<TwoFactorStatus>;
  /** POST /auth/two-factor/enroll: a new secret and its otpauth:// URI (for a QR code). */
  enroll(): Promise<TwoFactorEnrolment>;
  /** POST /auth/two-factor/confirm: a first code turns it on; the 10 recovery codes, shown once. */
  confirm(code: string): Promise<{ recoveryCodes: string[] }>;
  /** POST /auth/two-factor/disable, with a code (TOTP or recovery). */
  disable(code: string): Promise<void>;
}

export interface ApiKeysApi {
  /** POST /users/me/api-keys (login token only): the answer holds the secret, shown this once. */
  create(body: CreateApiKeyParams): Promise<CreatedApiKey>;
  /** GET /users/me/api-keys (login token only): the keys in use, without their secrets. */
  list(): Promise<ApiKeyList>;
  /** DELETE /users/me/api-keys/{id} (login token only): refused everywhere from then on. */
  revoke(id: string): Promise<void>;
}

export interface MembersApi {
  /** GET /members: the account's members. */
  list(): Promise<Member[]>;
  /** GET /members/invitations (members:write). */
  listInvitations(): Promise<Invitation[]>;
  /** POST /members/invitations (members:write): `link` only when the server has no SMTP. */
  invite(body: InviteParams): Promise<Invitation>;
  /** DELETE /members/invitations/{id} (members:write): the link stops working. */
  revokeInvitation(id: string): Promise<void>;
  /** GET /members/invitations/accept/{token} (public): what the link offers. */
  showInvitation(invitationToken: string): Promise<InvitationPreview>;
  /** POST /members/invitations/accept/{token} (public): the new member's login token, kept when the client has none. */
  acceptInvitation(invitationToken: string, body: AcceptInvitationParams): Promise<LoginResponse>;
  /** PATCH /members/{id} (members:write; an owner's role needs ownership:write). */
  changeRole(id: string, role: Role): Promise<Member>;
  /** DELETE /members/{id} (members:write): its tokens, sessions and keys stop. */
  remove(id: string): Promise<void>;
  /** POST /members/transfer-ownership (the owner): you become an admin and must sign in again. */
  transferOwnership(memberId: string): Promise<Member[]>;
}

export function authApi({ raw, keepToken }: ClientContext): AuthApi {
  return {
    async login(body: LoginBody): Promise<LoginAnswer> {
      const result = await success(raw.auth.login({ body }));
      if ('token' in result) keepToken(result.token);
      return result;
    },
    async loginMfa(body: LoginMfaBody): Promise<LoginResponse> {
      const result = await success(raw.twoFactor.loginMfa({ body }));
      keepToken(result.token);
      return result;
    },
  };
}

export function twoFactorApi({ raw }: ClientContext): TwoFactorApi {
  return {
    async status(): Promise<TwoFactorStatus> {
      return success(raw.twoFactor.status());
    },
    async enroll(): Promise<TwoFactorEnrolment> {
      return success(raw.twoFactor.enroll());
    },
    async confirm(code: string): Promise<{ recoveryCodes: string[] }> {
      return success(raw.twoFactor.confirm({ body: { code } }));
    },
    async disable(code: string): Promise<void> {
      await success(raw.twoFactor.disable({ body: { code } }));
    },
  };
}

export function apiKeysApi({ raw }: ClientContext): ApiKeysApi {
  return {
    async create(body: CreateApiKeyParams): Promise<CreatedApiKey> {
      return success(raw.apiKeys.create({ body }));
    },
    async list(): Promise<ApiKeyList> {
      return success(raw.apiKeys.list());
    },
    async revoke(id: string): Promise<void> {
      await success(raw.apiKeys.revoke(byId(id)));
    },
  };
}

export function membersApi({ raw, keepToken }: ClientContext): MembersApi {
  const byToken = (invitationToken: string) => ({ params: { token: segment(invitationToken) } });
  return {
    async list(): Promise<Member[]> {
      return (await success(raw.members.list())).items;
    },
    async listInvitations(): Promise<Invitation[]> {
      return (await success(raw.members.listInvitations())).items;
    },
    async invite(body: InviteParams): Promise<Invitation> {
      return success(raw.members.invite({ body }));
    },
    async revokeInvitation(id: string): Promise<void> {
      await success(raw.members.revokeInvitation(byId(id)));
    },
    async showInvitation(invitationToken: string): Promise<InvitationPreview> {
      return success(raw.members.showInvitation(byToken(invitationToken)));
    },
    async acceptInvitation(invitationToken: string, body: AcceptInvitationParams): Promise<LoginResponse> {
      const result = await success(raw.members.acceptInvitation({ ...byToken(invitationToken), body }));
      keepToken(result.token);
      return result;
    },
    async changeRole(id: string, role: Role): Promise<Member> {
      return success(raw.members.changeRole({ ...byId(id), body: { role } }));
    },
    async remove(id: string): Promise<void> {
      await success(raw.members.remove(byId(id)));
    },
    async transferOwnership(memberId: string): Promise<Member[]> {
      return (await success(raw.members.transferOwnership({ body: { memberId } }))).items;
    },
  };
}
