import { initServer } from '@ts-rest/express';
import { x402Contract } from '../../contract';
import type { Deps } from '../deps';
import { callerOf, currentMerchant } from '../http/current-merchant';
import { listGasKeys } from './list-gas-keys';
import { listSupported } from './list-supported';
import { settlePayment } from './settle-payment';
import { verifyPayment } from './verify-payment';

export function x402Router(deps: Deps) {
  return initServer().router(x402Contract, {
    supported: async ({ req }) => {
      currentMerchant(req);
      return { status: 200, body: listSupported(deps) };
    },
    verify: async ({ req, body }) => ({
      status: 200,
      body: await verifyPayment(deps, currentMerchant(req).id, body),
    }),
    gasKeys: async ({ req }) => {
      currentMerchant(req);
      return { status: 200, body: await listGasKeys(deps) };
    },
    settle: async ({ req, body }) => ({
      status: 200,
      body: await settlePayment(deps, {
        merchant: currentMerchant(req),
        by: callerOf(req),
        body,
      }),
    }),
  });
}
