import { initServer } from '@ts-rest/express';
import { accountContract } from '../../contract';
import type { Deps } from '../deps';
import { currentMerchant, currentUser } from '../http/current-merchant';
import { presentAccount } from './present-account';
import { updateAccount } from './update-account';

export function accountRouter(deps: Deps) {
  return initServer().router(accountContract, {
    get: async ({ req }) => ({ status: 200, body: presentAccount(currentMerchant(req)) }),
    update: async ({ req, body }) => ({
      status: 200,
      body: await updateAccount(deps, currentUser(req), body),
    }),
  });
}
