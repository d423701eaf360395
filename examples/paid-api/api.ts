/**
 * An API that charges 0.01 USDC per call with x402, settled by stablepay as its facilitator: each
 * paid call is an order of kind `x402` in your dashboard, with its webhooks and exports.
 *
 *   npm run sandbox                                                 # one terminal
 *   STABLEPAY_API_KEY=sk_... npx tsx examples/paid-api/api.ts        # another
 *   PAYER_PRIVATE_KEY=0x... npx tsx examples/paid-api/client.ts      # a third: pays and prints
 *
 * STABLEPAY_URL: the service (default http://localhost:3000). STABLEPAY_API_KEY: a key with the
 * scopes x402:settle and orders:read. On the sandbox the chain, its USDC and your wallet are read
 * from GET /sandbox: Polygon by default, Solana with SANDBOX_NETWORK=SOLANA (the payer then needs
 * USDC and no SOL: stablepay co-signs as fee payer). Elsewhere set NETWORK (CAIP-2: `eip155:137`,
 * `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`), USDC_CONTRACT (the contract or mint) and PAY_TO, one
 * of your wallets on that network.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { x402ResourceServer, paymentMiddleware } from '@x402/express';
import type { FacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { ExactSvmScheme } from '@x402/svm/exact/server';
import { createClient, type StablepayClient } from '@stablepay/sdk';
import { exitOnApiError, need } from '../support';

/** 0.01 USDC in its base units (6 decimals). */
export const PRICE_UNITS = '10000';
/** Circle's USDC signs EIP-3009 authorizations in this EIP-712 domain (the sandbox's USDC too). */
const USDC_DOMAIN = { name: 'USD Coin', version: '2' };

export type PaidApiSettings = {
  /** CAIP-2: `eip155:<chain id>` or `solana:<genesis hash prefix>`. */
  network: `eip155:${number}` | `solana:${string}`;
  /** The USDC contract (EVM) or mint (Solana). */
  usdc: string;
  payTo: string;
};

const onSolana = (network: PaidApiSettings['network']) => network.startsWith('solana:');

/** The Express app: GET /weather costs 0.01 USDC, paid by x402 and settled by stablepay. */
export function createPaidApi(stablepay: StablepayClient, s: PaidApiSettings) {
  // The SDK's facilitator client carries the API key: the ecosystem's middleware, unchanged.
  const facilitator = stablepay.x402.facilitator() as unknown as FacilitatorClient;
  // On Solana the scheme asks the facilitator for its fee payer (GET /x402/supported): the payer
  // signs a transfer whose fee stablepay pays.
  const scheme = onSolana(s.network) ? new ExactSvmScheme() : new ExactEvmScheme();
  const server = new x402ResourceServer(facilitator).register(s.network, scheme);
  const app = express();
  app.use(
    paymentMiddleware(
      {
        'GET /weather': {
          accepts: {
            scheme: 'exact',
            network: s.network,
            payTo: s.payTo,
            // EIP-3009 signatures name the token's EIP-712 domain; a Solana transfer names none.
            price: {
              amount: PRICE_UNITS,
              asset: s.usdc,
              ...(onSolana(s.network) ? {} : { extra: USDC_DOMAIN }),
            },
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

/**
 * Where to be paid: the settings given, else the sandbox's chain named by SANDBOX_NETWORK (POLYGON
 * by default, or SOLANA), its USDC and your wallet there.
 */
async function settings(stablepay: StablepayClient): Promise<PaidApiSettings> {
  if (process.env.NETWORK)
    return {
      network: process.env.NETWORK as PaidApiSettings['network'],
      usdc: need('USDC_CONTRACT'),
      payTo: need('PAY_TO'),
    };
  const name = process.env.SANDBOX_NETWORK ?? 'POLYGON';
  const chain = (await stablepay.sandbox.info()).chains.find((c) => c.network === name);
  const usdc = chain?.tokens.find((t) => t.symbol === 'USDC');
  if (!chain || !usdc) throw new Error(`the sandbox has no ${name} chain with USDC`);
  if (chain.kind === 'solana') {
    // The cluster the facilitator settles on, as it names it (the sandbox's chain stands in for mainnet).
    const { kinds } = await stablepay.x402.facilitator().getSupported();
    const kind = kinds.find((k) => k.network.startsWith('solana:'));
    if (!kind) throw new Error('the service settles no x402 payment on Solana (X402_SOLANA_FEE_PAYER_KEY)');
    return { network: kind.network as `solana:${string}`, usdc: usdc.contract, payTo: chain.wallet.address };
  }
  if (chain.chainId === null) throw new Error(`the sandbox's ${name} chain has no chain id`);
  return { network: `eip155:${chain.chainId}`, usdc: usdc.contract, payTo: chain.wallet.address };
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
