import { initServer } from '@ts-rest/express';
import { accountContract } from '../../contract';
import type { Deps } from '../deps';
import { currentUser } from '../http/current-merchant';
import { updateAccount } from './update-account';

export function accountRouter(deps: Deps) {
  return initServer().router(accountContract, {
    update: async ({ req, body }) => ({
      status: 200,
      body: await updateAccount(deps, currentUser(req), body),
    }),
  });
}
