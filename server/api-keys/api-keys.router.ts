import { initServer } from '@ts-rest/express';
import { apiKeysContract } from '../../contract';
import type { Deps } from '../deps';
import { currentMerchant, currentUser } from '../http/current-merchant';
import { createApiKey } from './create-api-key';
import { listApiKeys } from './list-api-keys';
import { revokeApiKey } from './revoke-api-key';

const makerOf = (user: Express.User) => ({
  merchantId: user.merchant.id,
  memberId: user.member.id,
  permissions: user.permissions,
});

export function apiKeysRouter(deps: Deps) {
  return initServer().router(apiKeysContract, {
    create: async ({ req, body }) => ({
      status: 201,
      body: await createApiKey(deps, makerOf(currentUser(req)), body),
    }),
    list: async ({ req }) => ({
      status: 200,
      body: { items: await listApiKeys(deps, currentMerchant(req).id) },
    }),
    revoke: async ({ req, params }) => {
      await revokeApiKey(deps, currentMerchant(req).id, params.id);
      return { status: 204, body: undefined };
    },
  });
}
