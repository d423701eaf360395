import { initServer } from '@ts-rest/express';
import { payContract } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { findPublicOrder } from '../orders/find-public-order';
import { presentPaymentInfo } from '../orders/present-payment-info';
import { submitPaymentClaim } from '../orders/submit-payment-claim';
import { buildPaymentTransaction } from './build-payment-transaction';
import { PAY_ICON_SVG } from './icon';
import { renderQr } from './render-qr';

const QR_CACHE = 'public, max-age=300';

/** payContract's routes but the checkout page, which server/checkout serves (checkoutPageRoute). */
const { checkout: _checkoutPage, ...payRoutes } = payContract;

export function payRouter(deps: Deps) {
  return initServer().router(payRoutes, {
    txRequest: async ({ params, query }) => ({
      status: 200,
      body: await buildPaymentTransaction(deps, {
        reference: params.reference,
        account: { value: query.account, path: 'query.account' },
        option: { network: query.network, token: query.token },
      }),
    }),
    txRequestPost: async ({ params, query, body }) => {
      const built = await buildPaymentTransaction(deps, {
        reference: params.reference,
        account: { value: body.account, path: 'body.account' },
        option: query,
        solanaPayOnly: true,
      });
      if (!('transaction' in built)) throw ApiError.field('params.reference', 'is not a Solana order');
      return { status: 200, body: built };
    },
    submitTx: async ({ params, body }) => {
      await submitPaymentClaim(deps, {
        reference: params.reference,
        txId: body.txId,
        network: body.network,
        signature: body.signature,
        source: 'payer',
      });
      const { order, merchantName } = await findPublicOrder(deps, params.reference);
      return { status: 202, body: presentPaymentInfo(deps, order, merchantName) };
    },
    info: async ({ params }) => {
      const { order, merchantName } = await findPublicOrder(deps, params.reference);
      return { status: 200, body: presentPaymentInfo(deps, order, merchantName) };
    },
    icon: async ({ res }) => {
      res.setHeader('Cache-Control', 'public, max-age=86400');
      return { status: 200, body: PAY_ICON_SVG };
    },
    qrSvg: async ({ params, query, res }) => {
      const svg = await renderQr(deps, params.reference, 'svg', query);
      res.setHeader('Cache-Control', QR_CACHE);
      return { status: 200, body: svg as string };
    },
    qrPng: async ({ params, query, res }) => {
      const png = await renderQr(deps, params.reference, 'png', query);
      res.setHeader('Cache-Control', QR_CACHE);
      return { status: 200, body: png as Buffer };
    },
  });
}
