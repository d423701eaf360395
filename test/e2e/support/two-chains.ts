import type { PublicKey } from '@solana/web3.js';
import type { Browser } from 'puppeteer-core';
import { getAddress, type Address } from 'viem';
import { startLocalEvm, type LocalEvm } from '../../../sandbox/chains/evm/local-evm';
import { startLocalSolana, type LocalSolana } from '../../../sandbox/chains/solana/local-solana';
import { startPaymentHarness, type PaymentHarness } from '../../support/payment-harness';
import { launchBrowser } from './browser';

export type TwoChains = {
  solana: LocalSolana;
  evm: LocalEvm;
  usdtSolana: PublicKey;
  usdtPolygon: Address;
  h: PaymentHarness;
  browser: Browser;
  stop(): Promise<void>;
};

/**
 * What the checkout and dashboard flows run on: a local Solana chain (litesvm) and a local Polygon
 * chain (Hardhat, chain id 137) with a USDT each, the service watching both (Polygon final after
 * `confirmations` blocks), and Chromium.
 */
export async function startTwoChains(confirmations: number): Promise<TwoChains> {
  const [solana, evm, browser] = await Promise.all([
    startLocalSolana(),
    startLocalEvm({ chainId: 137 }),
    launchBrowser(),
  ]);
  let h: PaymentHarness | undefined;
  const stop = async () => {
    await browser.close();
    await h?.stop();
    await Promise.all([solana.stop(), evm.stop()]);
  };
  try {
    const usdtSolana = await solana.createMint();
    const usdtPolygon = getAddress(await evm.deployToken());
    h = await startPaymentHarness({
      SOLANA_RPC_URL: solana.url,
      USDT_MINT_SOLANA: usdtSolana.toBase58(),
      POLYGON_RPC_URL: evm.url,
      USDT_CONTRACT_POLYGON: usdtPolygon,
      POLYGON_CHAIN_ID: '137',
      POLYGON_CONFIRMATIONS: String(confirmations),
    });
    return { solana, evm, usdtSolana, usdtPolygon, h, browser, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Says in the test log how long a flow's beforeAll took to bring its stack up. */
export function logStartup(flow: string, started: number) {
  console.log(
    `[e2e ${flow}] chains, service and Chromium up in ${(performance.now() - started).toFixed(0)} ms`,
  );
}
