import { Keypair, type Connection } from '@solana/web3.js';
import { SOLANA_DEVNET_CAIP2, SOLANA_MAINNET_CAIP2, SOLANA_TESTNET_CAIP2 } from '@x402/svm';
import { createSolanaConnection } from '../chains/solana/rpc';
import type { Deps } from '../deps';
import { decodeBase58 } from '../lib/base58';
import { notConfigured } from './x402-networks';

/** A token x402 may settle on Solana: a configured mint (USDT, USDC). */
export type X402SolanaToken = { symbol: string; mint: string; decimals: number };

/**
 * Solana as x402 settles on it: the CAIP-2 id of X402_SOLANA_CLUSTER (@x402/svm accepts only the
 * three clusters' ids; a local chain stands in for one), the configured mints, and a Connection on
 * SOLANA_RPC_URL's endpoints ('confirmed': x402 answers on inclusion).
 */
export type X402SolanaNetwork = {
  network: 'SOLANA';
  caip2: `solana:${string}`;
  tokens: X402SolanaToken[];
  connection: Connection;
};

const CLUSTER_IDS = {
  mainnet: SOLANA_MAINNET_CAIP2,
  devnet: SOLANA_DEVNET_CAIP2,
  testnet: SOLANA_TESTNET_CAIP2,
} as const;

// Per chain registry: the connection calls through its Solana pool (one registry per running service).
const built = new WeakMap<Deps['chains'], X402SolanaNetwork>();

/**
 * Solana for x402, built once per service (creating its Connection contacts nothing), on
 * Solana's one RPC pool (the chain registry's): its calls count against SOLANA_RPC_MAX_RPS with the
 * scanner's and the watcher's.
 */
export function x402SolanaNetwork(deps: Pick<Deps, 'config' | 'chains'>): X402SolanaNetwork {
  const known = built.get(deps.chains);
  if (known) return known;
  const { config } = deps;
  const pool = deps.chains.rpcPool('SOLANA');
  if (!pool) throw notConfigured('Solana', 'SOLANA_RPC_URL');
  const net: X402SolanaNetwork = {
    network: 'SOLANA',
    caip2: CLUSTER_IDS[config.x402.solanaCluster],
    tokens: config.solanaTokens.map((t) => ({ symbol: t.token, mint: t.contract, decimals: t.decimals })),
    connection: createSolanaConnection(pool, 'confirmed'),
  };
  built.set(deps.chains, net);
  return net;
}

/** Whether a CAIP-2 id is Solana's. */
export const isSolanaCaip2 = (caip2: string) => caip2.startsWith('solana:');

const feePayers = new WeakMap<Deps['config'], Keypair>();

/**
 * The fee payer (X402_SOLANA_FEE_PAYER_KEY: base58 or the Solana CLI's JSON byte array), or 503
 * NOT_CONFIGURED naming the variable.
 */
export function solanaFeePayer(deps: Pick<Deps, 'config'>): Keypair {
  const known = feePayers.get(deps.config);
  if (known) return known;
  const text = deps.config.x402.solanaFeePayerKey;
  if (!text) throw notConfigured('x402 on Solana', 'X402_SOLANA_FEE_PAYER_KEY');
  const bytes = text.startsWith('[') ? Uint8Array.from(JSON.parse(text) as number[]) : decodeBase58(text);
  if (!bytes || bytes.length !== 64)
    throw notConfigured('x402 on Solana (the key is not 64 bytes)', 'X402_SOLANA_FEE_PAYER_KEY');
  const keypair = Keypair.fromSecretKey(bytes);
  feePayers.set(deps.config, keypair);
  return keypair;
}
