import { toHex, type Hex } from 'viem';
import type { SandboxChainInfo } from '../contract';
import { decodeBase58 } from '../server/lib/base58';
import { startLocalTron, type TronTransaction } from './chains/tron';

/** A block every 3 s besides one per transaction, as on TRON. */
const BLOCK_TIME_MS = 3000;
const MERCHANT_TRX = 1_000_000_000n; // 1,000 TRX: refunds burn TRX for energy and bandwidth
/**
 * Blocks between the head and the solidified block: 2, not TRON's 19, so that a payment is final
 * in about 6 s as the sandbox's EVM payments are (2 confirmations), still only once solidified.
 */
const SANDBOX_SOLIDIFY_LAG = 2;
/** What the payer and a faucet's address get to spend on energy and bandwidth: 100 TRX. */
const PAYER_TRX = 100_000_000n;

/**
 * The sandbox's TRON chain (on unless SANDBOX_TRON=false): the local TRON-compatible chain with its
 * USDT at mainnet's address, a payer, and the merchant's TRON wallet (the sandbox's EVM key: a TRON
 * address holds the same secp256k1 key's 20 bytes) funded with TRX. `env` points the service at it
 * (TRON_RPC_URL, TRON_API_URL, USDT_CONTRACT_TRON); pay/fund/advance/sendRefund have the shapes of
 * the other sandbox chains', for deps.sandbox.
 */
export async function startSandboxTron(merchantKey: Hex) {
  const tron = await startLocalTron({
    blockTimeMs: BLOCK_TIME_MS,
    params: { solidifyLag: SANDBOX_SOLIDIFY_LAG },
  });
  const payer = await tron.newWallet();
  const merchant = await tron.newWallet({ trx: MERCHANT_TRX, privateKey: merchantKey });
  const info: SandboxChainInfo = {
    network: 'TRON',
    kind: 'tron',
    chainId: tron.chainId,
    rpcUrl: tron.jsonRpcUrl,
    apiUrl: tron.url,
    tokens: [{ symbol: 'USDT', contract: tron.usdt, decimals: 6 }],
    wallet: { address: merchant.address, privateKey: `0x${merchant.privateKey}` },
  };
  return {
    tron,
    info,
    env: {
      TRON_RPC_URL: tron.jsonRpcUrl,
      TRON_API_URL: tron.url,
      USDT_CONTRACT_TRON: tron.usdt,
    },
    /** A USDT transfer from the sandbox's payer (minted first), the order's tag after its arguments. */
    async pay(o: { token: string; to: string; units: bigint; tag: string | null }) {
      await tron.mint(payer.address, o.units, o.token);
      tron.fundTrx(payer.address, PAYER_TRX);
      const tag = o.tag === null ? undefined : toHex(decodeBase58(o.tag)!);
      return tron.transfer({ from: payer, to: o.to, units: o.units, token: o.token, tag });
    },
    /** TRX for fees, and the tokens as a real TRON transfer from the payer (a mint has no TRON txID). */
    async fund(o: { address: string; token: string; units: bigint }) {
      tron.fundTrx(o.address, PAYER_TRX);
      tron.fundTrx(payer.address, PAYER_TRX);
      await tron.mint(payer.address, o.units, o.token);
      return [await tron.transfer({ from: payer, to: o.address, units: o.units, token: o.token })];
    },
    async advance(blocks: number, seconds: number) {
      if (seconds > 0) await tron.evm.rpc('evm_increaseTime', [seconds]);
      if (blocks > 0 || seconds > 0) await tron.mine(Math.max(blocks, 1));
      return { network: 'TRON' as const, blockNumber: Number(await tron.blockNumber()) };
    },
    /**
     * Signs the unsigned transaction the service built for the merchant's wallet and broadcasts it:
     * the refund's `transaction` is `{transaction, estimatedCost}` on TRON.
     */
    async sendRefund(from: string, refund: unknown) {
      if (from !== merchant.address) return null;
      const { transaction } = refund as { transaction: TronTransaction };
      const answer = await tron.broadcast(await tron.sign(transaction, merchant));
      if (answer.result !== true) throw new Error(`TRON refund refused: ${answer.code}`);
      return answer.txid!;
    },
    stop: () => tron.stop(),
  };
}
export type SandboxTron = Awaited<ReturnType<typeof startSandboxTron>>;
