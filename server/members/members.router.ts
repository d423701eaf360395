import { initServer } from '@ts-rest/express';
import { membersContract } from '../../contract';
import type { Deps } from '../deps';
import { currentUser } from '../http/current-merchant';
import { acceptInvitation } from './accept-invitation';
import { changeRole } from './change-role';
import { showInvitation } from './find-invitation';
import { inviteMember } from './invite-member';
import { listInvitations } from './list-invitations';
import { listMembers } from './list-members';
import { removeMember } from './remove-member';
import { revokeInvitation } from './revoke-invitation';
import { transferOwnership } from './transfer-ownership';

export function membersRouter(deps: Deps) {
  return initServer().router(membersContract, {
    list: async ({ req }) => ({
      status: 200,
      body: { items: await listMembers(deps, currentUser(req).merchant.id) },
    }),
    listInvitations: async ({ req }) => ({
      status: 200,
      body: { items: await listInvitations(deps, currentUser(req).merchant.id) },
    }),
    invite: async ({ req, body }) => ({
      status: 201,
      body: await inviteMember(deps, currentUser(req), body),
    }),
    revokeInvitation: async ({ req, params }) => {
      await revokeInvitation(deps, currentUser(req).merchant.id, params.id);
      return { status: 204, body: undefined };
    },
    showInvitation: async ({ params }) => ({ status: 200, body: await showInvitation(deps, params.token) }),
    acceptInvitation: async ({ params, body }) => ({
      status: 201,
      body: await acceptInvitation(deps, params.token, body),
    }),
    changeRole: async ({ req, params, body }) => ({
      status: 200,
      body: await changeRole(deps, currentUser(req), params.id, body.role),
    }),
    remove: async ({ req, params }) => {
      await removeMember(deps, currentUser(req), params.id);
      return { status: 204, body: undefined };
    },
    transferOwnership: async ({ req, body }) => ({
      status: 200,
      body: { items: await transferOwnership(deps, currentUser(req), body.memberId) },
    }),
  });
}
