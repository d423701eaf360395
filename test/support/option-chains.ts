import { Keypair } from '@solana/web3.js';
import { getAddress, toHex, type Address } from 'viem';
import { afterAll, beforeAll, expect } from 'vitest';
import { parseUnits } from '../../contract/decimal';
import { decodeBase58 } from '../../server/lib/base58';
import { startLocalEvm, type LocalWallet } from '../../sandbox/chains/evm/local-evm';
import { startPaymentHarness } from './payment-harness';
import { startRefundChains } from './refund-chains';

export const BSC_CONFIRMATIONS = 2;
export const units18 = (amount: string) => parseUnits(amount, 18);
const tagOf = (reference: string) => toHex(decodeBase58(reference)!);

/**
 * The payment options suites' chains (issue 29): Solana and Polygon (USDT, 6 decimals) and BSC
 * (USDT, 18 decimals), a payment harness on all three, and shops with a wallet on each.
 */
export async function startOptionChains() {
  const [chains, bscEvm] = await Promise.all([startRefundChains(), startLocalEvm({ chainId: 56 })]);
  const bsc = { evm: bscEvm, usdt: getAddress(await bscEvm.deployToken({ decimals: 18 })) };
  const h = await startPaymentHarness({
    ...chains.env,
    ETHEREUM_RPC_URL: 'none',
    BSC_RPC_URL: bsc.evm.url,
    BSC_CHAIN_ID: '56',
    BSC_CONFIRMATIONS: String(BSC_CONFIRMATIONS),
    USDT_CONTRACT_BSC: bsc.usdt,
    USDC_CONTRACT_BSC: 'none',
  });
  await Promise.all(h.server.deps.chains.all().map((c) => c.verifyTokens()));

  /** A shop with a wallet on Solana (its first), Polygon and BSC, whose keys the test holds. */
  async function newShop() {
    const solanaKey = Keypair.generate();
    await chains.solana.fundSol(solanaKey.publicKey);
    const shop = await h.newShop('SOLANA', solanaKey.publicKey.toBase58());
    const polygonKey = await chains.polygon.newWallet();
    const bscKey = await bsc.evm.newWallet();
    for (const [network, address] of [
      ['POLYGON', polygonKey.address],
      ['BSC', bscKey.address],
    ] as const) {
      const res = await h.server.api('POST', '/users/me/wallets', {
        token: shop.token,
        body: { network, public_address: address },
      });
      expect(res.status, res.text).toBe(201);
    }
    return { shop, keys: { solana: solanaKey, polygon: polygonKey, bsc: bscKey } };
  }

  const bscPayer = () => bsc.evm.newWallet({ token: bsc.usdt, units: units18('1000') });

  /** A BSC transfer, tagged with the order's reference when given, made final. */
  async function payBsc(from: LocalWallet, to: string, units: bigint, tag?: string) {
    const tx = await bsc.evm.transfer({
      from,
      token: bsc.usdt,
      to: to as Address,
      units,
      dataSuffix: tag ? tagOf(tag) : undefined,
    });
    await bsc.evm.mine(BSC_CONFIRMATIONS);
    return tx;
  }

  return {
    chains,
    bsc,
    h,
    newShop,
    bscPayer,
    payBsc,
    parts: () => [h, chains.solana, chains.polygon, bsc.evm],
  };
}

export type OptionChains = Awaited<ReturnType<typeof startOptionChains>>;
export type OptionShop = Awaited<ReturnType<OptionChains['newShop']>>['shop'];

/**
 * The option chains for a whole test file: started before its tests, stopped after. What it
 * returns stands for them (read it inside hooks and tests only).
 */
export function withOptionChains(): OptionChains {
  let o: OptionChains | undefined;
  beforeAll(async () => {
    o = await startOptionChains();
  }, 120_000);
  afterAll(async () => {
    await Promise.all((o?.parts() ?? []).map((p) => p.stop()));
  });
  return new Proxy({} as OptionChains, {
    get(_, key) {
      if (!o) throw new Error('the option chains are not started');
      return o[key as keyof OptionChains];
    },
  });
}
