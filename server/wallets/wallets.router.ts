import { initServer } from '@ts-rest/express';
import { walletsContract } from '../../contract';
import type { Deps } from '../deps';
import { currentMerchant } from '../http/current-merchant';
import { createWallet } from './create-wallet';
import { deleteWallet } from './delete-wallet';
import { listWallets } from './list-wallets';

export function walletsRouter(deps: Deps) {
  return initServer().router(walletsContract, {
    list: async ({ req }) => ({ status: 200, body: await listWallets(deps, currentMerchant(req).id) }),
    create: async ({ req, body }) => ({
      status: 201,
      body: await createWallet(deps, currentMerchant(req).id, body),
    }),
    remove: async ({ req, params }) => {
      await deleteWallet(deps, currentMerchant(req).id, params.wallet_id);
      return { status: 204, body: undefined };
    },
  });
}
