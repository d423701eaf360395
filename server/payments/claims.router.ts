import { initServer } from '@ts-rest/express';
import { claimsContract } from '../../contract';
import type { Deps } from '../deps';
import { currentMerchant } from '../http/current-merchant';
import { listUnattributed } from './unattributed-payments';

export function claimsRouter(deps: Deps) {
  return initServer().router(claimsContract, {
    unattributed: async ({ req, query }) => ({
      status: 200,
      body: await listUnattributed(deps, currentMerchant(req).id, query),
    }),
  });
}
