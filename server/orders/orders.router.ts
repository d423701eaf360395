import { initServer } from '@ts-rest/express';
import { ordersContract } from '../../contract';
import type { Deps } from '../deps';
import { callerOf, currentMerchant, currentUser } from '../http/current-merchant';
import { created, creation } from '../http/created';
import { createOrder } from './create-order';
import { readOrder } from './find-order';
import { listOrders } from './list-orders';
import { onlyOrdersOf } from './own-orders';
import { presentOrder } from './present-order';
import { refundableUnitsOfOrder } from './refundable-amount';
import { submitPaymentClaim } from './submit-payment-claim';

export function ordersRouter(deps: Deps) {
  return initServer().router(ordersContract, {
    create: async ({ req, res, body, headers }) =>
      created(res, await createOrder(deps, creation(req, body, headers))),
    list: async ({ req, query }) => ({
      status: 200,
      body: await listOrders(deps, currentMerchant(req), {
        ...query,
        createdByMember: onlyOrdersOf(currentUser(req)),
      }),
    }),
    get: async ({ req, params }) => {
      const merchant = currentMerchant(req);
      const order = await readOrder(deps, { reference: params.reference, merchantId: merchant.id });
      const refundable = await refundableUnitsOfOrder(deps.db, order, deps.clock());
      return { status: 200, body: presentOrder(deps, order, merchant.fullName, refundable) };
    },
    submitTx: async ({ req, params, body }) => {
      const merchant = currentMerchant(req);
      const order = await submitPaymentClaim(deps, {
        reference: params.reference,
        merchantId: merchant.id,
        txId: body.txId,
        network: body.network,
        source: 'merchant',
        by: callerOf(req),
      });
      const refundable = await refundableUnitsOfOrder(deps.db, order, deps.clock());
      return { status: 202, body: presentOrder(deps, order, merchant.fullName, refundable) };
    },
  });
}
