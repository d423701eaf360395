import { initServer } from '@ts-rest/express';
import { refundsContract } from '../../contract';
import type { Deps } from '../deps';
import { callerOf, currentMerchant } from '../http/current-merchant';
import { created, creation } from '../http/created';
import { listPayments } from '../payments/list-payments';
import { approveRefund } from './approve-refund';
import { buildRefundTxRequest, refundTxRequestLabel } from './build-refund-tx-request';
import { createRefund } from './create-refund';
import { findPublicRefund } from './find-public-refund';
import { listRefunds } from './list-refunds';
import { presentPublicRefund } from './present-public-refund';
import { refundPage } from './refund-page';
import { setRefundAddress } from './set-refund-address';

export function refundsRouter(deps: Deps) {
  return initServer().router(refundsContract, {
    payments: async ({ req, params }) => ({
      status: 200,
      body: await listPayments(deps, { merchantId: currentMerchant(req).id, reference: params.reference }),
    }),
    create: async ({ req, res, params, body, headers }) =>
      created(
        res,
        await createRefund(deps, { ...creation(req, body, headers), reference: params.reference }),
      ),
    list: async ({ req, params }) => ({
      status: 200,
      body: await listRefunds(deps, { merchantId: currentMerchant(req).id, reference: params.reference }),
    }),
    info: async ({ params }) => {
      const { refund, order, merchantName } = await findPublicRefund(deps, params.refundId);
      return { status: 200, body: presentPublicRefund(deps, refund, order, merchantName) };
    },
    setAddress: async ({ params, body }) => ({
      status: 200,
      body: await setRefundAddress(deps, {
        refundId: params.refundId,
        address: body.address,
        signature: body.signature,
      }),
    }),
    approve: async ({ req, params }) => ({
      status: 200,
      body: await approveRefund(deps, {
        merchant: currentMerchant(req),
        reference: params.reference,
        refundId: params.id,
        by: callerOf(req),
      }),
    }),
    page: async ({ req, res, params, query }) => {
      const page = await refundPage(deps, {
        refundId: params.refundId,
        lang: query.lang,
        acceptLanguage: req.headers['accept-language'],
      });
      res.setHeader('Content-Security-Policy', page.contentSecurityPolicy);
      res.setHeader('Content-Language', page.contentLanguage);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Vary', 'Accept-Language');
      return { status: 200, body: page.html };
    },
    txRequest: async ({ params }) => ({
      status: 200,
      body: await refundTxRequestLabel(deps, params.refundId),
    }),
    txRequestPost: async ({ params, body }) => ({
      status: 200,
      body: await buildRefundTxRequest(deps, { refundId: params.refundId, account: body.account }),
    }),
  });
}
