import { Keypair, PublicKey } from '@solana/web3.js';
import { getAddress, toHex, type Address, type Hex } from 'viem';
import { parseUnits } from '../../contract/decimal';
import { decodeBase58 } from '../../server/lib/base58';
import { randomEvmAddress, startLocalEvm, type LocalWallet } from '../../sandbox/chains/evm/local-evm';
import { sleep, type HarnessShop, type PaymentHarness } from './payment-harness';
import { startLocalSolana } from '../../sandbox/chains/solana/local-solana';
import { signSolanaMessage } from '../../sandbox/chains/solana/sign-message';

/** Blocks that make a Polygon transfer final for the refund suites. */
export const REFUND_POLYGON_CONFIRMATIONS = 2;

/**
 * The refund suites' chains: local Solana with a USDT mint, local Polygon with a USDT contract, and
 * the service's settings for both networks.
 */
export async function startRefundChains() {
  const [solana, polygon] = await Promise.all([startLocalSolana(), startLocalEvm({ chainId: 137 })]);
  const solanaMint = await solana.createMint();
  const polygonUsdt = getAddress(await polygon.deployToken());
  const env: Record<string, string> = {
    SOLANA_RPC_URL: solana.url,
    USDT_MINT_SOLANA: solanaMint.toBase58(),
    SOLANA_COMMITMENT: 'finalized',
    POLYGON_RPC_URL: polygon.url,
    USDT_CONTRACT_POLYGON: polygonUsdt,
    POLYGON_CHAIN_ID: '137',
    POLYGON_CONFIRMATIONS: String(REFUND_POLYGON_CONFIRMATIONS),
    EVM_LOG_RANGE: '50',
  };
  return { solana, polygon, solanaMint, polygonUsdt, env };
}

export type RefundChains = Awaited<ReturnType<typeof startRefundChains>>;
export type RefundKey = Keypair | LocalWallet;

/** One network as the refund suites drive it: wallets, transfers, and sending what the service built. */
export type RefundDriver = {
  network: 'SOLANA' | 'POLYGON';
  /** A shop whose receiving wallet the test holds the key of. */
  newShop(harness: PaymentHarness): Promise<{ shop: HarnessShop; key: RefundKey }>;
  /** A payer holding tokens; its address as the service writes it. */
  newPayer(): Promise<{ address: string; key: RefundKey }>;
  /** A fresh address nobody uses. */
  freshAddress(): string;
  /** A transfer of `units` from `key` to `to`, tagged with `tag` when given; final when it returns. */
  transfer(key: RefundKey, to: string, units: bigint, tag?: string): Promise<string>;
  /** Signs and sends the refund transaction the service built, as it is; final when it returns. */
  sendBuilt(refund: { transaction: unknown }, key: RefundKey): Promise<string>;
  balance(address: string): Promise<bigint>;
  /** An address of the right form that fails the network's checks. */
  badAddress: string;
  /** The wallet's signature of a UTF-8 message, as its wallet app would give it (signMessage / personal_sign). */
  sign(key: RefundKey, message: string): Promise<string>;
};

/** The two drivers over the chains `chains()` gives once the suite has started them. */
export function refundDrivers(chains: () => RefundChains): { solana: RefundDriver; polygon: RefundDriver } {
  const solana: RefundDriver = {
    network: 'SOLANA',
    async newShop(harness) {
      const key = Keypair.generate();
      await chains().solana.fundSol(key.publicKey);
      return { shop: await harness.newShop('SOLANA', key.publicKey.toBase58()), key };
    },
    async newPayer() {
      const key = await chains().solana.newPayer({ mint: chains().solanaMint, units: 1_000_000_000n });
      return { address: key.publicKey.toBase58(), key };
    },
    freshAddress: () => Keypair.generate().publicKey.toBase58(),
    transfer: (key, to, units, tag) =>
      chains().solana.transfer({
        payer: key as Keypair,
        recipientOwner: new PublicKey(to),
        mint: chains().solanaMint,
        amountUnits: units,
        reference: tag ? new PublicKey(tag) : undefined,
      }),
    sendBuilt: (refund, key) =>
      chains().solana.signAndSend(
        (refund.transaction as { transaction: string }).transaction,
        key as Keypair,
      ),
    balance: (address) => chains().solana.tokenBalance(new PublicKey(address), chains().solanaMint),
    badAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    sign: async (key, message) => signSolanaMessage(key as Keypair, message),
  };
  const polygon: RefundDriver = {
    network: 'POLYGON',
    async newShop(harness) {
      const key = await chains().polygon.newWallet();
      return { shop: await harness.newShop('POLYGON', key.address), key };
    },
    async newPayer() {
      const key = await chains().polygon.newWallet({ token: chains().polygonUsdt, units: 1_000_000_000n });
      return { address: key.address, key };
    },
    freshAddress: randomEvmAddress,
    async transfer(key, to, units, tag) {
      const tx = await chains().polygon.transfer({
        from: key as LocalWallet,
        token: chains().polygonUsdt,
        to: to as Address,
        units,
        dataSuffix: tag ? toHex(decodeBase58(tag)!) : undefined,
      });
      await chains().polygon.mine(REFUND_POLYGON_CONFIRMATIONS);
      return tx;
    },
    async sendBuilt(refund, key) {
      const built = refund.transaction as { to: Address; data: Hex };
      const tx = await chains().polygon.sendTransaction({
        from: key as LocalWallet,
        to: built.to,
        data: built.data,
      });
      await chains().polygon.mine(REFUND_POLYGON_CONFIRMATIONS);
      return tx;
    },
    balance: (address) => chains().polygon.balanceOf(chains().polygonUsdt, address as Address),
    badAddress: '0x52908400098527886e0F7030069857D2E4169EE7', // bad EIP-55 checksum
    sign: (key, message) => (key as LocalWallet).signMessage({ message }),
  };
  return { solana, polygon };
}

/**
 * A shop on the driver's network whose wallet key the test holds, a payer, and an order of `amount`
 * (6 decimals) paid in full by a tagged transfer and settled PAID.
 */
export async function paidOrderOn(harness: PaymentHarness, driver: RefundDriver, amount: string) {
  const { shop, key: merchant } = await driver.newShop(harness);
  const payer = await driver.newPayer();
  const order = await harness.createOrder(shop, { amount });
  await driver.transfer(payer.key, shop.wallet, parseUnits(amount, 6), order.reference);
  await harness.settle(shop, order.reference, 'PAID');
  return { shop, merchant, payer, order };
}

/** A refund as the merchant's routes answer it (the fields the refund suites read). */
type ListedRefund = { id: string; status: string; txId: string | null; late: boolean };

/** Runs the refund verifier (and the webhook sender) until the refund has `status`. */
export async function refundBecomes<R extends ListedRefund = ListedRefund>(
  harness: PaymentHarness,
  shop: HarnessShop,
  reference: string,
  id: string,
  status: string,
): Promise<R> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await harness.server.jobs.runNow('verify-refunds');
    await harness.deliverWebhooks();
    const res = await harness.server.api<{ items: R[] }>('GET', `/orders/${reference}/refunds`, {
      token: shop.token,
    });
    const refund = res.body.items.find((r) => r.id === id)!;
    if (refund.status === status) return refund;
    if (Date.now() > deadline) throw new Error(`refund is ${refund.status}, not ${status}`);
    await sleep(50);
  }
}
