/**
 * An API that charges 0.01 USDC per call with x402, settled by stablepay as its facilitator: each
 * paid call is an order of kind `x402` in your dashboard, with its webhooks and exports.
 *
 *   npm run sandbox                                                 # one terminal
 *   STABLEPAY_API_KEY=sk_... npx tsx examples/paid-api/api.ts        # another
 *   PAYER_PRIVATE_KEY=0x... npx tsx examples/paid-api/client.ts      # a third: pays and prints
 *
 * STABLEPAY_URL: the service (default http://localhost:3000). STABLEPAY_API_KEY: a key with the
 * scopes x402:settle and orders:read (the sandbox's chain and wallet are read from GET /sandbox;
 * elsewhere set NETWORK, USDC_CONTRACT and PAY_TO, one of your wallets on that network).
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { x402ResourceServer, paymentMiddleware } from '@x402/express';
import type { FacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { createClient, type StablepayClient } from '@stablepay/sdk';
import { exitOnApiError, need } from '../support';

/** 0.01 USDC in its base units (6 decimals). */
export const PRICE_UNITS = '10000';
/** Circle's USDC signs EIP-3009 authorizations in this EIP-712 domain (the sandbox's USDC too). */
const USDC_DOMAIN = { name: 'USD Coin', version: '2' };

export type PaidApiSettings = {
  /** CAIP-2: `eip155:<chain id>`. */
  network: `eip155:${number}`;
  usdc: string;
  payTo: string;
};

/** The Express app: GET /weather costs 0.01 USDC, paid by x402 and settled by stablepay. */
export function createPaidApi(stablepay: StablepayClient, s: PaidApiSettings) {
  // The SDK's facilitator client carries the API key: the ecosystem's middleware, unchanged.
  const facilitator = stablepay.x402.facilitator() as unknown as FacilitatorClient;
  const server = new x402ResourceServer(facilitator).register(s.network, new ExactEvmScheme());
  const app = express();
  app.use(
    paymentMiddleware(
      {
        'GET /weather': {
          accepts: {
            scheme: 'exact',
            network: s.network,
            payTo: s.payTo,
            price: { amount: PRICE_UNITS, asset: s.usdc, extra: USDC_DOMAIN },
            maxTimeoutSeconds: 120,
          },
          description: "Today's weather, 0.01 USDC a call",
          mimeType: 'application/json',
        },
      },
      server,
    ),
  );
  app.get('/weather', (_req, res) => {
    res.json({ city: 'Lisbon', sky: 'clear', celsius: 21 });
  });
  return app;
}

/** Where to be paid: the settings given, else the sandbox's Polygon chain, its USDC and your wallet there. */
async function settings(stablepay: StablepayClient): Promise<PaidApiSettings> {
  if (process.env.NETWORK)
    return {
      network: process.env.NETWORK as PaidApiSettings['network'],
      usdc: need('USDC_CONTRACT'),
      payTo: need('PAY_TO'),
    };
  const polygon = (await stablepay.sandbox.info()).chains.find((c) => c.network === 'POLYGON');
  const usdc = polygon?.tokens.find((t) => t.symbol === 'USDC');
  if (!polygon || !usdc || polygon.chainId === null)
    throw new Error('the sandbox has no Polygon chain with USDC');
  return { network: `eip155:${polygon.chainId}`, usdc: usdc.contract, payTo: polygon.wallet.address };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const stablepay = createClient({
      baseUrl: process.env.STABLEPAY_URL ?? 'http://localhost:3000',
      apiKey: need('STABLEPAY_API_KEY'),
    });
    const app = createPaidApi(stablepay, await settings(stablepay));
    const listener = app.listen(Number(process.env.PORT ?? 4021), '127.0.0.1', () => {
      const { port } = listener.address() as AddressInfo;
      console.log(`paid API listening on http://127.0.0.1:${port}/weather`);
    });
  } catch (error) {
    exitOnApiError(error);
  }
}
