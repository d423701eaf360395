import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Keypair, PublicKey } from '@solana/web3.js';
import { encodeBase58 } from '../server/lib/base58';
import { getAddress, type Address } from 'viem';
import type { z } from 'zod';
import type { ZLoginResponse } from '../contract';
import { startLocalTron, type LocalTron } from '../sandbox/chains/tron';
import {
  createMerchant,
  freePort,
  loadConfig,
  startLocalEvm,
  startLocalSolana,
  startServer,
  type LocalEvm,
  type LocalSolana,
} from '../test/support/harness';
import { createApi, type Api } from './api';
import { addEvmWallet, addWallet, amountSequence } from './fixtures';
import type { Cleanup } from './lib/cleanup';
import { progress } from './lib/progress';
import { makeRunFolder, removeAbandonedRuns, stopLeftoverPostgres } from './run-folder';
import { EVM_CHAIN_ID, EVM_CONFIRMATIONS, EVM_NETWORK, SIZES } from './settings';

const PASSWORD = 'bench-password-123';
/** Never contacted in these runs (networks not benchmarked, rates, messenger): a closed local port all the same. */
const CLOSED = 'http://127.0.0.1:9';

export type RunningServer = Awaited<ReturnType<typeof startServer>>;

/** Made for this run: every bench server on one database signs and seals with the same ones. */
export const BENCH_SECRETS = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

export type Wallet = { id: string; owner: PublicKey };
/** A receiving wallet on the EVM network (no key: nothing is ever sent from it). */
export type EvmWallet = { id: string; address: Address };

export type EvmCtx = {
  chain: LocalEvm;
  /** The USDT stand-in (6 decimals), checksummed. */
  usdt: Address;
  /** The USDC with EIP-3009 (x402), checksummed. */
  usdc: Address;
  /** The x402 facilitator's gas key (X402_EVM_PRIVATE_KEY), funded. */
  x402GasKey: `0x${string}`;
  /** The merchant's main EVM receiving wallet. */
  wallet: EvmWallet;
};

export type Ctx = {
  server: RunningServer;
  chain: LocalSolana;
  mint: PublicKey;
  /** The x402 facilitator's Solana fee payer (X402_SOLANA_FEE_PAYER_KEY), funded. */
  x402FeePayer?: Keypair;
  /** The local EVM chain, when an EVM part runs. */
  evm?: EvmCtx;
  /** The local TRON chain (its USDT at mainnet's address), when a TRON part runs. */
  tron?: LocalTron;
  api: Api;
  merchantId: string;
  /** The merchant's bearer token. */
  token: string;
  /** The merchant's main receiving wallet. */
  wallet: Wallet;
  /** Distinct order amounts (0.01 apart), so no order is nudged to stay unique among open ones. */
  nextAmount: () => string;
  addCleanup: Cleanup['add'];
};

export type Chains = {
  chain: LocalSolana;
  mint: PublicKey;
  /** The x402 facilitator's Solana fee payer, funded (its server is told X402_SOLANA_FEE_PAYER_KEY). */
  x402FeePayer?: Keypair;
  evm?: { chain: LocalEvm; usdt: Address; usdc: Address; x402GasKey: `0x${string}` };
  tron?: LocalTron;
};
/** The chains besides Solana that the parts run need. */
export type ChainChoice = { evm: boolean; tron?: boolean };

/**
 * Everything on 127.0.0.1, all of it registered with `cleanup` as it starts: a run folder, the
 * local chains, the server on an embedded PostgreSQL (background jobs off), a merchant logged in
 * with its receiving wallets.
 */
export async function setUp(cleanup: Cleanup, opts: ChainChoice): Promise<Ctx> {
  const dataDir = await prepareRunFolder(cleanup);
  const chains = await startChains(cleanup, opts);
  const server = await startBenchServer(cleanup, dataDir, chains);
  const ctx = await logInMerchant(server, chains, cleanup.add);
  ctx.wallet = await addWallet(ctx, 'main');
  if (chains.evm) ctx.evm = { ...chains.evm, wallet: await addEvmWallet(ctx, 'evm main') };
  ctx.tron = chains.tron;
  ctx.x402FeePayer = chains.x402FeePayer;
  return ctx;
}

async function prepareRunFolder(cleanup: Cleanup): Promise<string> {
  const abandoned = await removeAbandonedRuns();
  if (abandoned > 0) progress(`removed ${abandoned} folder(s) left by interrupted runs`);
  const dataDir = makeRunFolder();
  cleanup.add('temporary folder', async () =>
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 }),
  );
  cleanup.add('leftover PostgreSQL', () => stopLeftoverPostgres(dataDir));
  return dataDir;
}

async function startChains(cleanup: Cleanup, opts: ChainChoice): Promise<Chains> {
  progress('starting the local Solana chain');
  const chain = await startLocalSolana();
  cleanup.add('local Solana chain', () => chain.stop());
  const mint = await chain.createMint();
  const x402FeePayer = Keypair.generate();
  await chain.fundSol(x402FeePayer.publicKey, 10n ** 12n);
  const tron = opts.tron ? await startTron(cleanup) : undefined;
  if (!opts.evm) return { chain, mint, x402FeePayer, tron };

  progress(`starting the local EVM chain (a Hardhat node, chain id ${EVM_CHAIN_ID})`);
  const evmChain = await startLocalEvm({ chainId: EVM_CHAIN_ID });
  cleanup.add('local EVM chain', () => evmChain.stop());
  const usdt = getAddress(await evmChain.deployToken());
  // x402: a USDC with EIP-3009 and the facilitator's gas key, funded.
  const usdc = getAddress(await evmChain.deployUsdc());
  const x402GasKey = (await evmChain.newWallet({ eth: 10n ** 21n })).privateKey;
  return { chain, mint, x402FeePayer, tron, evm: { chain: evmChain, usdt, usdc, x402GasKey } };
}

async function startTron(cleanup: Cleanup): Promise<LocalTron> {
  progress('starting the local TRON chain (a Hardhat node behind the TRON gateway)');
  const tron = await startLocalTron();
  cleanup.add('local TRON chain', () => tron.stop());
  return tron;
}

/** The EVM settings: the benchmarked network on the local chain when it runs; closed ports otherwise. */
function evmEnv(evm: Chains['evm']): Record<string, string> {
  return {
    POLYGON_RPC_URL: CLOSED,
    ETHEREUM_RPC_URL: CLOSED,
    ...(evm && {
      [`${EVM_NETWORK}_RPC_URL`]: evm.chain.url,
      [`USDT_CONTRACT_${EVM_NETWORK}`]: evm.usdt,
      [`USDC_CONTRACT_${EVM_NETWORK}`]: evm.usdc,
      X402_EVM_PRIVATE_KEY: evm.x402GasKey,
      [`${EVM_NETWORK}_CHAIN_ID`]: String(EVM_CHAIN_ID),
      [`${EVM_NETWORK}_CONFIRMATIONS`]: String(EVM_CONFIRMATIONS),
    }),
  };
}

/**
 * What every bench server is told, whatever runs its jobs: loopback only, limits out of the
 * measurements' way, the local chains, and closed ports for everything else. Only what is given
 * here: never the caller's environment (DATABASE_URL could be a real database).
 */
export function benchServerEnv(port: number, chains: Chains): Record<string, string> {
  return {
    ...BENCH_SECRETS,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    // Out of the measurements' way: the merchant's API per second, the payer's routes per minute.
    API_RATE_LIMIT_PER_SECOND: '1000000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
    SOLANA_RPC_URL: chains.chain.url,
    USDT_MINT_SOLANA: chains.mint.toBase58(),
    ...(chains.x402FeePayer && { X402_SOLANA_FEE_PAYER_KEY: encodeBase58(chains.x402FeePayer.secretKey) }),
    ...evmEnv(chains.evm),
    // TRON is off unless a TRON part runs.
    ...(chains.tron && { TRON_RPC_URL: chains.tron.jsonRpcUrl, TRON_API_URL: chains.tron.url }),
    FX_PROVIDER: 'static',
    FX_COINBASE_URL: CLOSED,
    MESSENGER_API_BASE_URL: CLOSED,
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
}

async function startBenchServer(cleanup: Cleanup, dataDir: string, chains: Chains): Promise<RunningServer> {
  progress(`starting the server on an embedded PostgreSQL in ${dataDir}`);
  const config = loadConfig({
    ...benchServerEnv(await freePort(), chains),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    JOBS_ENABLED: 'false',
    JOB_BATCH_SIZE: String(SIZES.jobBatch),
  });
  // Registered before it is up: interrupted while starting, the cleanup waits for the start to
  // settle (the database may be half-way through initdb) and stops what started.
  const starting = startServer(config);
  cleanup.add('server', async () => (await starting.catch(() => null))?.stop());
  return starting;
}

/** A merchant made with the service's own call, logged in over HTTP; its wallets come next. */
export async function logInMerchant(
  server: RunningServer,
  chains: Chains,
  addCleanup: Cleanup['add'],
): Promise<Ctx> {
  const api = createApi(server.url);
  const email = 'bench@stablepay.local';
  const merchant = await createMerchant(server.deps.db.models, {
    email,
    password: PASSWORD,
    name: 'Bench Shop',
  });
  const { token } = await api.json<z.infer<typeof ZLoginResponse>>('POST', '/auth/login', {
    body: { email, password: PASSWORD },
  });
  return {
    server,
    chain: chains.chain,
    mint: chains.mint,
    api,
    merchantId: merchant.id,
    token,
    wallet: { id: '', owner: PublicKey.default },
    nextAmount: amountSequence('10.00'),
    addCleanup,
  };
}
