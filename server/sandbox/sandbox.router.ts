import { initServer } from '@ts-rest/express';
import { sandboxContract } from '../../contract';
import type { Deps } from '../deps';
import { callerOf, currentMerchant } from '../http/current-merchant';
import { advanceChains } from './advance-chains';
import { fundAddress } from './fund-address';
import { payCheckoutOrder } from './pay-checkout-order';
import { payOrder } from './pay-order';
import { sandboxChains } from './sandbox-guard';
import { sendPayout } from './send-payout';
import { sendRefund } from './send-refund';

export function sandboxRouter(deps: Deps) {
  return initServer().router(sandboxContract, {
    info: async () => ({ status: 200, body: { chains: sandboxChains(deps).info() } }),
    pay: async ({ params, body, req }) => ({
      status: 200,
      body: {
        txId: await payOrder(deps, {
          merchantId: currentMerchant(req).id,
          reference: params.reference,
          body,
        }),
      },
    }),
    checkoutPay: async ({ params, body }) => ({
      status: 200,
      body: { txId: await payCheckoutOrder(deps, { reference: params.reference, body }) },
    }),
    faucet: async ({ body }) => ({ status: 200, body: { txIds: await fundAddress(deps, body) } }),
    advance: async ({ body }) => ({ status: 200, body: { networks: await advanceChains(deps, body) } }),
    sendRefund: async ({ params, req }) => ({
      status: 200,
      body: { txId: await sendRefund(deps, { merchantId: currentMerchant(req).id, refundId: params.id }) },
    }),
    sendPayout: async ({ params, req }) => ({
      status: 200,
      body: {
        txIds: await sendPayout(deps, {
          merchantId: currentMerchant(req).id,
          id: params.id,
          actor: callerOf(req),
        }),
      },
    }),
  });
}
