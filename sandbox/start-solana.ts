import { Keypair, PublicKey } from '@solana/web3.js';
import type { SandboxChainInfo } from '../contract';
import { encodeBase58 } from '../server/lib/base58';
import { startLocalSolana } from './chains/solana/local-solana';

const GAS_LAMPORTS = 10_000_000_000n; // 10 SOL: fees for a long session

/**
 * The sandbox's Solana: litesvm with 6-decimal USDT and USDC mints, a payer, the merchant's
 * wallet funded with SOL so that it can send refunds (its token accounts open, as x402 payments
 * need), and a funded fee payer for the x402 facilitator (X402_SOLANA_FEE_PAYER_KEY; the local
 * chain stands in for X402_SOLANA_CLUSTER's default, mainnet).
 */
export async function startSandboxSolana(merchant: Keypair) {
  const chain = await startLocalSolana();
  const usdt = await chain.createMint();
  const usdc = await chain.createMint();
  const payer = await chain.newPayer({ sol: GAS_LAMPORTS });
  await chain.fundSol(merchant.publicKey, GAS_LAMPORTS);
  for (const mint of [usdt, usdc]) await chain.mintTo(merchant.publicKey, mint, 0n);
  const x402FeePayer = Keypair.generate();
  await chain.fundSol(x402FeePayer.publicKey, GAS_LAMPORTS);
  const info: SandboxChainInfo = {
    network: 'SOLANA',
    kind: 'solana',
    rpcUrl: chain.url,
    chainId: null,
    tokens: [
      { symbol: 'USDT', contract: usdt.toBase58(), decimals: 6 },
      { symbol: 'USDC', contract: usdc.toBase58(), decimals: 6 },
    ],
    wallet: { address: merchant.publicKey.toBase58(), privateKey: encodeBase58(merchant.secretKey) },
  };
  return {
    chain,
    info,
    env: {
      SOLANA_RPC_URL: chain.url,
      USDT_MINT_SOLANA: info.tokens[0]!.contract,
      USDC_MINT_SOLANA: info.tokens[1]!.contract,
      X402_SOLANA_FEE_PAYER_KEY: encodeBase58(x402FeePayer.secretKey),
    },
    /** Mints what the payment needs to the payer first: the payer never runs dry. */
    async pay(o: { token: string; to: string; units: bigint; tag: string | null }) {
      const mint = new PublicKey(o.token);
      await chain.mintTo(payer.publicKey, mint, o.units);
      return chain.transfer({
        payer,
        recipientOwner: new PublicKey(o.to),
        mint,
        amountUnits: o.units,
        reference: o.tag === null ? undefined : new PublicKey(o.tag),
      });
    },
    async fund(o: { address: string; token: string; units: bigint }) {
      const owner = new PublicKey(o.address);
      await chain.fundSol(owner, GAS_LAMPORTS);
      return [await chain.mintTo(owner, new PublicKey(o.token), o.units)];
    },
    advance(blocks: number, seconds: number) {
      if (blocks > 0) chain.advanceSlots(blocks);
      if (seconds > 0) chain.advanceClock(seconds);
      return { network: 'SOLANA' as const, slot: chain.currentSlot() };
    },
    /** The refund transaction the service built, signed by the merchant's key as its wallet would. */
    sendRefund(from: string, transaction: unknown) {
      if (from !== merchant.publicKey.toBase58()) return Promise.resolve(null);
      return chain.signAndSend((transaction as { transaction: string }).transaction, merchant);
    },
    stop: () => chain.stop(),
  };
}
export type SandboxSolana = Awaited<ReturnType<typeof startSandboxSolana>>;
