/**
 * Benchmarks of the hot paths: order creation, listing, QR codes, the Solana payment path, a scan
 * cycle, webhook delivery, and the EVM (Polygon) payment path and scan cycle. A script that
 * measures and prints, never a test (timings belong here, not in assertions), and not run by
 * `npm test`.
 *
 * Everything runs on 127.0.0.1: an embedded PostgreSQL in a fresh temporary folder, a local Solana
 * chain (litesvm behind JSON-RPC), a local EVM chain (a Hardhat node, chain id 137, in a child
 * process) when an EVM part runs, the server with its background jobs turned off and run by hand
 * (so every measured run does the same work), and a local webhook receiver. All of it is stopped
 * and the folder deleted at the end, on failure and on Ctrl-C too.
 *
 *   npm run bench                      # every part
 *   npm run bench -- --only evm        # some parts: a comma list of
 *                                      #   orders, listing, qr, payments, scan, webhooks,
 *                                      #   evm-payments, evm-scan, or the groups solana, evm
 *
 * The numbers are for comparing runs on the same machine, not absolute figures.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Keypair, PublicKey } from '@solana/web3.js';
import { QueryTypes } from 'sequelize';
import { getAddress, toHex, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { z } from 'zod';
import type {
  Network,
  Order,
  ZEvmTransaction,
  ZLoginResponse,
  ZOrderCursorPage,
  ZOrderPage,
  ZSolanaTransaction,
  ZWallet,
} from '../contract';
import { loadConfig } from '../server/config';
import { decodeBase58 } from '../server/lib/base58';
import { formatUnits, parseUnits } from '../server/lib/decimal';
import { startServer } from '../server/main';
import { listOrders } from '../server/orders/list-orders';
import { createMerchant } from '../server/merchants/create-merchant';
import { startLocalEvm, type LocalEvm, type LocalWallet } from '../test/support/evm/local-evm';
import { startLocalSolana, type LocalSolana } from '../test/support/solana/local-solana';
import { freePort } from '../test/support/free-port';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { benchRequestPath, printPathReport } from './bench/request-path';
import { createCleanup, errorMessage, finisher, stopOnSignals, type Cleanup } from './lib/cleanup';
import { percentile } from './lib/percentile';

/** Every request count is fixed here: the run is bounded and the same each time. */
const SIZES = {
  warmUp: 5,
  createSequential: 200,
  createConcurrent: 300,
  concurrency: 10,
  listingOrders: 5000,
  perPage: 50,
  cursorWalkPages: 20,
  deepPage: 100,
  pageRepeats: 20,
  qr: 50,
  payments: 50,
  scanSmall: 10,
  scanLarge: 1000,
  webhooks: 200,
  wakeups: 20,
  jobBatch: 50,
  evmPayments: 100,
  evmScanSmall: 10,
  evmScanLarge: 10_000,
  evmWallets: 100,
  /** More wallets than one eth_getLogs call takes (100 recipients): the calls per range grow. */
  evmWalletsMore: 250,
} as const;

/** The parts `--only` picks from; a group names several. */
const PARTS = [
  'orders',
  'listing',
  'qr',
  'payments',
  'scan',
  'webhooks',
  'evm-payments',
  'evm-scan',
  'wakeups',
  'request-path',
] as const;
type Part = (typeof PARTS)[number];
const PART_GROUPS: Record<string, Part[]> = {
  solana: ['payments', 'scan'],
  evm: ['evm-payments', 'evm-scan'],
};

/** The EVM network benchmarked (its real chain id), and blocks on top of a payment before it is final. */
const EVM_NETWORK = 'POLYGON' satisfies Network;
const EVM_CHAIN_ID = 137;
const EVM_CONFIRMATIONS = 2;

const PASSWORD = 'bench-password-123';
/** Per cleanup step: a stuck step must not keep the others (or the process) waiting forever. */
const CLEANUP_STEP_TIMEOUT_MS = 30_000;

type RunningServer = Awaited<ReturnType<typeof startServer>>;
type CursorPage = z.infer<typeof ZOrderCursorPage>;
type NumberedPage = z.infer<typeof ZOrderPage>;
type SolanaTransactionResponse = z.infer<typeof ZSolanaTransaction>;
type EvmTransactionResponse = z.infer<typeof ZEvmTransaction>;

// ---------------------------------------------------------------------------------------------
// Measuring

type Row = { name: string; count: number; totalMs: number; samplesMs?: number[] };
type Report = { rows: Row[]; notes: string[] };

const now = () => performance.now();
const progress = (message: string) => process.stderr.write(`· ${message}\n`);

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = now();
  const value = await fn();
  return { value, ms: now() - started };
}

/** `count` operations one after the other; each one's latency is kept for p50/p95. */
async function sequential(name: string, count: number, op: (i: number) => Promise<unknown>): Promise<Row> {
  const samplesMs: number[] = [];
  const started = now();
  for (let i = 0; i < count; i++) {
    const t = now();
    await op(i);
    samplesMs.push(now() - t);
  }
  return { name, count, totalMs: now() - started, samplesMs };
}

/** `count` operations, `concurrency` at a time; total is wall time, samples are each one's latency. */
async function concurrent(
  name: string,
  count: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
): Promise<Row> {
  const samplesMs: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t = now();
      await op(i);
      samplesMs.push(now() - t);
    }
  };
  const started = now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { name, count, totalMs: now() - started, samplesMs };
}

type Case = { name: string; op: () => Promise<unknown> };

/** Rounds of every case in turn, so drift (warm-up, other load on the machine) touches each alike. */
async function interleaved(cases: Case[], rounds: number): Promise<Row[]> {
  const samples = cases.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++)
    for (const [i, { op }] of cases.entries()) {
      const t = now();
      await op();
      samples[i]?.push(now() - t);
    }
  return cases.map(({ name }, i) => rowFrom(name, samples[i] ?? []));
}

/** A row of operations timed one by one, elsewhere. */
function rowFrom(name: string, samplesMs: number[]): Row {
  return { name, count: samplesMs.length, totalMs: samplesMs.reduce((a, b) => a + b, 0), samplesMs };
}

/** RPC calls as "method count, …", by method name. */
function callsByMethod(calls: Record<string, number>): string {
  return Object.entries(calls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([method, count]) => `${method} ${count}`)
    .join(', ');
}

const totalCalls = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);

/** "b vs a (×r)" for two counts: r is b / a (whole, or to two decimals). */
const versus = (a: number, b: number) => `${b} vs ${a} (×${(b / a).toFixed(b % a === 0 ? 0 : 2)})`;

// ---------------------------------------------------------------------------------------------
// Resources and cleanup

const TEMP_PREFIX = 'stablepay-bench-';
/** Names the process a temporary folder belongs to (see removeAbandonedRuns). */
const OWNER_FILE = 'bench-owner.pid';

/** A folder of our own that the `postgres` OS user (used when running as root) can enter. */
function makeTempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  return dir;
}

function readPid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a process, or null when it is gone or cannot be read. */
function commandLine(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    try {
      return execFileSync('ps', ['-p', String(pid), '-o', 'args='], { encoding: 'utf8' });
    } catch {
      return null;
    }
  }
}

/**
 * The embedded PostgreSQL normally stops with the server. If one still runs on `dataDir` (the run
 * was interrupted while it started, say), stop it by the pid it wrote there, once that pid is
 * seen to be a postgres of this folder (a stale file's pid may belong to anything by now).
 */
async function stopLeftoverPostgres(dataDir: string): Promise<void> {
  const databaseDir = path.join(dataDir, 'postgres');
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  const pid = readPid(pidFile);
  if (pid === null || !commandLine(pid)?.includes(databaseDir)) return;
  try {
    process.kill(pid, 'SIGINT'); // PostgreSQL's fast shutdown
  } catch {
    return; // already gone
  }
  for (let waited = 0; isAlive(pid) && waited < 10_000; waited += 100) await sleep(100);
}

/**
 * A run killed outright cannot clean up after itself (tsx sends SIGKILL when its child does not
 * acknowledge a Ctrl-C within 60 ms, as can happen while the event loop is busy): the next run
 * stops the PostgreSQL and removes the folder of every earlier run whose process is gone.
 */
async function removeAbandonedRuns(): Promise<number> {
  let removed = 0;
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const dir = path.join(os.tmpdir(), name);
    const owner = readPid(path.join(dir, OWNER_FILE));
    if (owner === null || isAlive(owner)) continue; // running, or not ours to judge
    await stopLeftoverPostgres(dir);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    removed++;
  }
  return removed;
}

/** A webhook receiver on 127.0.0.1 that answers 200 to everything and counts. */
async function startReceiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/webhooks`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP

type CallOptions = { token?: string; body?: unknown; expect?: number };

/** A small client for the server under test; an unexpected status is an error (with the body). */
function createApi(baseUrl: string) {
  async function send(method: string, urlPath: string, opts: CallOptions): Promise<Response> {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const expected = opts.expect ?? 200;
    if (res.status !== expected)
      throw new Error(
        `${method} ${urlPath}: expected ${expected}, got ${res.status}: ${(await res.text()).slice(0, 300)}`,
      );
    return res;
  }
  return {
    async json<T>(method: string, urlPath: string, opts: CallOptions = {}): Promise<T> {
      return (await (await send(method, urlPath, opts)).json()) as T;
    },
    /** GET a binary or text body, read to the end; returns its size. */
    async bytes(urlPath: string): Promise<number> {
      return (await (await send('GET', urlPath, {})).arrayBuffer()).byteLength;
    },
  };
}

type Api = ReturnType<typeof createApi>;

// ---------------------------------------------------------------------------------------------
// The stack under test

type Wallet = { id: string; owner: PublicKey };
/** A receiving wallet on the EVM network (no key: nothing is ever sent from it). */
type EvmWallet = { id: string; address: Address };

type EvmCtx = {
  chain: LocalEvm;
  /** The USDT stand-in (6 decimals), checksummed. */
  usdt: Address;
  /** The merchant's main EVM receiving wallet. */
  wallet: EvmWallet;
};

type Ctx = {
  server: RunningServer;
  chain: LocalSolana;
  mint: PublicKey;
  /** The local EVM chain, when an EVM part runs. */
  evm?: EvmCtx;
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

async function setUp(cleanup: Cleanup, opts: { evm: boolean }): Promise<Ctx> {
  const abandoned = await removeAbandonedRuns();
  if (abandoned > 0) progress(`removed ${abandoned} folder(s) left by interrupted runs`);
  const dataDir = makeTempDir();
  cleanup.add('temporary folder', async () =>
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 }),
  );
  cleanup.add('leftover PostgreSQL', () => stopLeftoverPostgres(dataDir));

  progress('starting the local Solana chain');
  const chain = await startLocalSolana();
  cleanup.add('local Solana chain', () => chain.stop());
  const mint = await chain.createMint();

  let evm: { chain: LocalEvm; usdt: Address } | undefined;
  if (opts.evm) {
    progress(`starting the local EVM chain (a Hardhat node, chain id ${EVM_CHAIN_ID})`);
    const evmChain = await startLocalEvm({ chainId: EVM_CHAIN_ID });
    cleanup.add('local EVM chain', () => evmChain.stop());
    evm = { chain: evmChain, usdt: getAddress(await evmChain.deployToken()) };
  }
  // Networks not benchmarked are never contacted; pointed at a closed local port all the same.
  const closed = 'http://127.0.0.1:9';
  const evmEnv: Record<string, string> = {
    POLYGON_RPC_URL: closed,
    ETHEREUM_RPC_URL: closed,
    ...(evm && {
      [`${EVM_NETWORK}_RPC_URL`]: evm.chain.url,
      [`USDT_CONTRACT_${EVM_NETWORK}`]: evm.usdt,
      [`${EVM_NETWORK}_CHAIN_ID`]: String(EVM_CHAIN_ID),
      [`${EVM_NETWORK}_CONFIRMATIONS`]: String(EVM_CONFIRMATIONS),
    }),
  };

  progress(`starting the server on an embedded PostgreSQL in ${dataDir}`);
  const port = await freePort();
  // Only what is given here: never the caller's environment (DATABASE_URL could be a real database).
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    JOBS_ENABLED: 'false',
    JOB_BATCH_SIZE: String(SIZES.jobBatch),
    SOLANA_RPC_URL: chain.url,
    USDT_MINT_SOLANA: mint.toBase58(),
    ...evmEnv,
    FX_PROVIDER: 'static',
    // Never contacted in these runs; pointed at a closed local port all the same.
    FX_COINBASE_URL: 'http://127.0.0.1:9',
    MESSENGER_API_BASE_URL: 'http://127.0.0.1:9',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  // Registered before it is up: interrupted while starting, the cleanup waits for the start to
  // settle (the database may be half-way through initdb) and stops what started.
  const starting = startServer(config);
  cleanup.add('server', async () => (await starting.catch(() => null))?.stop());
  const server = await starting;
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
  const ctx: Ctx = {
    server,
    chain,
    mint,
    api,
    merchantId: merchant.id,
    token,
    wallet: { id: '', owner: PublicKey.default },
    nextAmount: amountSequence('10.00'),
    addCleanup: cleanup.add,
  };
  ctx.wallet = await addWallet(ctx, 'main');
  if (evm) ctx.evm = { ...evm, wallet: await addEvmWallet(ctx, 'evm main') };
  return ctx;
}

function amountSequence(first: string): () => string {
  let next = parseUnits(first);
  return () => {
    const amount = next;
    next += 10_000n;
    return formatUnits(amount, 6, 2);
  };
}

/** A SOLANA receiving wallet whose keypair is generated here. */
async function addWallet(ctx: Ctx, name: string): Promise<Wallet> {
  const owner = Keypair.generate().publicKey;
  const wallet = await ctx.api.json<z.infer<typeof ZWallet>>('POST', '/users/me/wallets', {
    token: ctx.token,
    body: { network: 'SOLANA', public_address: owner.toBase58(), name },
    expect: 201,
  });
  return { id: wallet.wallet_id, owner };
}

/** An EVM receiving wallet at a fresh address. */
async function addEvmWallet(ctx: Ctx, name: string): Promise<EvmWallet> {
  const wallet = await ctx.api.json<z.infer<typeof ZWallet>>('POST', '/users/me/wallets', {
    token: ctx.token,
    body: { network: EVM_NETWORK, public_address: privateKeyToAccount(generatePrivateKey()).address, name },
    expect: 201,
  });
  return { id: wallet.wallet_id, address: getAddress(wallet.public_address) };
}

/** A USDT order to a SOLANA wallet, or to an EVM one (on EVM_NETWORK). */
function createOrder(ctx: Ctx, wallet: Wallet | EvmWallet = ctx.wallet): Promise<Order> {
  const network = 'owner' in wallet ? 'SOLANA' : EVM_NETWORK;
  return ctx.api.json<Order>('POST', '/orders', {
    token: ctx.token,
    body: { network, token: 'USDT', amount: ctx.nextAmount(), merchantWalletId: wallet.id },
    expect: 201,
  });
}

async function createOrders(
  ctx: Ctx,
  count: number,
  wallet: Wallet | EvmWallet = ctx.wallet,
): Promise<Order[]> {
  const orders: Order[] = [];
  for (let i = 0; i < count; i++) orders.push(await createOrder(ctx, wallet));
  return orders;
}

async function sqlCount(ctx: Ctx, sql: string, replacements: Record<string, unknown> = {}): Promise<number> {
  const rows = await ctx.server.deps.db.sequelize.query<{ n: number }>(sql, {
    type: QueryTypes.SELECT,
    replacements,
  });
  return rows[0]?.n ?? 0;
}

const countPaid = (ctx: Ctx, references: string[]) =>
  sqlCount(
    ctx,
    `SELECT count(*)::int AS n FROM orders WHERE status = 'PAID' AND reference IN (:references)`,
    { references },
  );

const countOpen = (ctx: Ctx, recipient: PublicKey | Address) =>
  sqlCount(
    ctx,
    `SELECT count(*)::int AS n FROM orders
      WHERE recipient = :recipient AND status IN ('PENDING', 'CONFIRMING', 'UNDERPAID')`,
    { recipient: typeof recipient === 'string' ? recipient : recipient.toBase58() },
  );

/**
 * Closes every open order (expired, past its late-payment window), so that a scan cycle reads
 * only the wallets a step opens orders on.
 */
async function closeOpenOrders(ctx: Ctx): Promise<void> {
  await ctx.server.deps.db.sequelize.query(
    `UPDATE orders SET status = 'EXPIRED', expires_at = now() - interval '30 days', updated_at = now()
      WHERE status IN ('PENDING', 'CONFIRMING', 'UNDERPAID')`,
  );
}

/**
 * Orders inserted straight into the table, `count` per template, each copying its template's
 * merchant, wallet, network and mint. References are 32 base58 characters (md5 hex with '0'
 * mapped to 'z'); amounts are distinct per template.
 */
async function insertOrders(
  ctx: Ctx,
  opts: { template: string | string[]; count: number; status: 'EXPIRED' | 'PENDING'; baseUnits: bigint },
): Promise<void> {
  // EXPIRED ones are history, long past the late-payment window; PENDING ones expire with the template.
  const times =
    opts.status === 'EXPIRED'
      ? `now() - interval '30 days', now() - interval '30 days 15 minutes', now() - interval '30 days'`
      : `o.expires_at, now(), now()`;
  await ctx.server.deps.db.sequelize.query(
    `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient,
                         amount_units, status, expires_at, created_at, updated_at)
     SELECT translate(md5(:salt || o.reference || g), '0', 'z'), o.merchant_id, o.wallet_id, o.network,
            o.token, o.token_mint, o.recipient, CAST(:base AS bigint) + g, :status, ${times}
       FROM orders o, generate_series(1, :count) AS g
      WHERE o.reference IN (:templates)`,
    {
      replacements: {
        salt: `${Date.now()}-${Math.random()}-`,
        base: opts.baseUnits.toString(),
        status: opts.status,
        count: opts.count,
        templates: typeof opts.template === 'string' ? [opts.template] : opts.template,
      },
    },
  );
  // As autovacuum would soon: with the statistics of before the insert, the planner expects a few
  // rows and sorts all of the merchant's orders for every listing page, even the first.
  await ctx.server.deps.db.sequelize.query('ANALYZE orders');
}

/**
 * Runs a job until `done`, at most `maxRuns` times; the time is that of the runs alone. A job
 * swallows its own errors (it logs them, and logging is off), so "not done" is reported here.
 */
async function runJobUntil(
  ctx: Ctx,
  job: string,
  done: () => Promise<boolean>,
  maxRuns: number,
): Promise<{ ms: number; runs: number }> {
  let ms = 0;
  let runs = 0;
  while (!(await done())) {
    if (runs >= maxRuns) throw new Error(`${job}: still not done after ${runs} runs`);
    const run = await timed(() => ctx.server.jobs.runNow(job));
    ms += run.ms;
    runs++;
    if (run.value === 0) await sleep(100); // nothing was due: give the chain or the lease a moment
  }
  return { ms, runs };
}

// ---------------------------------------------------------------------------------------------
// 1. POST /orders

async function benchCreateOrders(ctx: Ctx, report: Report): Promise<Order[]> {
  progress('POST /orders');
  await createOrders(ctx, SIZES.warmUp);
  const created: Order[] = [];
  const keep = async () => void created.push(await createOrder(ctx));
  report.rows.push(await sequential('POST /orders, sequential', SIZES.createSequential, keep));
  report.rows.push(
    await concurrent(
      `POST /orders, ${SIZES.concurrency} concurrent`,
      SIZES.createConcurrent,
      SIZES.concurrency,
      keep,
    ),
  );
  return created;
}

// 2. GET /users/me/orders

async function benchListing(ctx: Ctx, report: Report, template: string): Promise<void> {
  progress('GET /users/me/orders');
  const existing = await sqlCount(ctx, 'SELECT count(*)::int AS n FROM orders');
  const toInsert = Math.max(0, SIZES.listingOrders - existing);
  const insert = await timed(() =>
    insertOrders(ctx, { template, count: toInsert, status: 'EXPIRED', baseUnits: 1_000_000n }),
  );
  report.notes.push(
    `listing: ${toInsert} past orders added with one INSERT … SELECT generate_series, then ANALYZE (${insert.ms.toFixed(0)} ms); ` +
      `the merchant has ${existing + toInsert}`,
  );

  const { perPage, deepPage, cursorWalkPages, pageRepeats } = SIZES;
  const http = listingOverHttp(ctx);
  for (let i = 0; i < SIZES.warmUp; i++) await http.byCursor('');
  // cursors[k - 1] fetches page k.
  const cursors = [''];
  report.rows.push(
    await sequential(`cursor walk, pages 1-${cursorWalkPages}`, cursorWalkPages, () =>
      nextCursorPage(http, cursors),
    ),
  );
  while (cursors.length < deepPage) await nextCursorPage(http, cursors);

  const merchant = await ctx.server.deps.db.models.Merchant.findByPk(ctx.merchantId);
  if (!merchant) throw new Error('the merchant is gone');
  const direct = {
    byCursor: (cursor: string) => listOrders(ctx.server.deps, merchant, { per_page: perPage, cursor }),
    byNumber: (page: number) => listOrders(ctx.server.deps, merchant, { per_page: perPage, page }),
  };
  const byCursor = (via: string, list: Listing, page: number): Case => ({
    name: `${via} cursor page ${page}`,
    op: async () => expectFull((await list.byCursor(cursors[page - 1] ?? '')).items),
  });
  const byNumber = (via: string, list: Listing, page: number): Case => ({
    name: `${via} page=${page}`,
    op: async () => expectFull((await list.byNumber(page)).items),
  });
  const cases = [
    byCursor('GET', http, 1),
    byCursor('GET', http, cursorWalkPages),
    byCursor('GET', http, deepPage),
    byNumber('GET', http, 1),
    byNumber('GET', http, deepPage),
    byCursor('listOrders()', direct, 1),
    byCursor('listOrders()', direct, deepPage),
    byNumber('listOrders()', direct, 1),
    byNumber('listOrders()', direct, deepPage),
  ];
  report.rows.push(...(await interleaved(cases, pageRepeats)));
  report.notes.push(
    `listing: per_page ${perPage}; the page rows are taken in turn, ${pageRepeats} rounds; ` +
      'listOrders() is the same service call in-process (no HTTP, no response validation)',
  );
}

type Listing = {
  byCursor(cursor: string): Promise<{ items: unknown[]; nextCursor?: string | null }>;
  byNumber(page: number): Promise<{ items: unknown[] }>;
};

function listingOverHttp(ctx: Ctx): Listing {
  const list = <T>(query: string) =>
    ctx.api.json<T>('GET', `/users/me/orders?per_page=${SIZES.perPage}&${query}`, { token: ctx.token });
  return {
    byCursor: (cursor) => list<CursorPage>(`cursor=${encodeURIComponent(cursor)}`),
    byNumber: (page) => list<NumberedPage>(`page=${page}`),
  };
}

/** Fetches the page after the last cursor known and keeps the cursor it returns. */
async function nextCursorPage(listing: Listing, cursors: string[]): Promise<void> {
  const page = await listing.byCursor(cursors[cursors.length - 1] ?? '');
  expectFull(page.items);
  if (!page.nextCursor) throw new Error(`the cursor walk ended at page ${cursors.length}`);
  cursors.push(page.nextCursor);
}

function expectFull(items: unknown[]): void {
  if (items.length !== SIZES.perPage)
    throw new Error(`a page has ${items.length} orders, not ${SIZES.perPage}`);
}

// 3. QR codes

async function benchQr(ctx: Ctx, report: Report, orders: Order[]): Promise<void> {
  progress('QR codes');
  const references = orders.slice(0, SIZES.qr).map((o) => o.reference);
  if (references.length < SIZES.qr) throw new Error(`only ${references.length} orders for the QR codes`);
  for (const format of ['svg', 'png'] as const) {
    const get = (i: number) => ctx.api.bytes(`/pay/${references[i % references.length]}/qr.${format}`);
    for (let i = 0; i < SIZES.warmUp; i++) await get(i);
    report.rows.push(await sequential(`GET /pay/{ref}/qr.${format}`, SIZES.qr, get));
  }
}

// 4. Payments, end to end

async function benchPayments(ctx: Ctx, report: Report): Promise<void> {
  progress('the payment path (tx-request, sign and send, submit-tx, verify-payments)');
  const n = SIZES.payments;
  const orders = await createOrders(ctx, n);
  const payers: Keypair[] = [];
  for (let i = 0; i < n; i++)
    payers.push(await ctx.chain.newPayer({ mint: ctx.mint, units: 1_000_000_000n }));

  const steps = { txRequest: [] as number[], send: [] as number[], submit: [] as number[] };
  const step = async <T>(samples: number[], fn: () => Promise<T>) => {
    const { value, ms } = await timed(fn);
    samples.push(ms);
    return value;
  };
  const flow = await sequential('pay: the three steps, per order', n, async (i) => {
    const order = orders[i];
    const payer = payers[i];
    if (!order || !payer) throw new Error(`no order or payer ${i}`);
    const built = await step(steps.txRequest, () =>
      ctx.api.json<SolanaTransactionResponse>(
        'GET',
        `/pay/tx-request/${order.reference}?account=${payer.publicKey.toBase58()}`,
      ),
    );
    const txId = await step(steps.send, () => ctx.chain.signAndSend(built.transaction, payer));
    await step(steps.submit, () =>
      ctx.api.json('POST', `/pay/${order.reference}/submit-tx`, { body: { txId }, expect: 202 }),
    );
  });
  report.rows.push(
    rowFrom('pay: GET /pay/tx-request/{ref}?account', steps.txRequest),
    rowFrom('pay: payer signs, sendTransaction', steps.send),
    rowFrom('pay: POST /pay/{ref}/submit-tx', steps.submit),
    flow,
  );

  const references = orders.map((o) => o.reference);
  const verify = await runJobUntil(
    ctx,
    'verify-payments',
    async () => (await countPaid(ctx, references)) === n,
    Math.ceil(n / SIZES.jobBatch) + 5,
  );
  report.rows.push({ name: `verify-payments until ${n} PAID`, count: n, totalMs: verify.ms });
  report.notes.push(
    `verify-payments: ${n} payments verified in ${verify.runs} run(s) of batch ${SIZES.jobBatch}`,
  );
}

// 5. A scan cycle

async function benchScan(ctx: Ctx, report: Report): Promise<void> {
  progress('scan-payments with 10 and 1,000 open orders');
  // Only the scan wallet is watched: the open orders of the steps before are closed (past their
  // late-payment window), so each cycle reads one address.
  await closeOpenOrders(ctx);
  const wallet = await addWallet(ctx, 'scan');
  const orders = await createOrders(ctx, SIZES.scanSmall, wallet);
  await ctx.chain.mintTo(wallet.owner, ctx.mint, 0n); // its token account exists, with a history
  const payer = await ctx.chain.newPayer({ mint: ctx.mint, units: 1_000_000_000n });

  /** One new payment nobody reports, then one scan cycle, timed, with its RPC calls. */
  const measuredScan = async (order: Order | undefined, withReference: boolean) => {
    if (!order) throw new Error('no order to pay');
    await ctx.server.jobs.runNow('scan-payments'); // every watched address has an up-to-date cursor
    const open = await countOpen(ctx, wallet.owner);
    await ctx.chain.transfer({
      payer,
      recipientOwner: wallet.owner,
      mint: ctx.mint,
      amountUnits: parseUnits(order.amount),
      reference: withReference ? new PublicKey(order.reference) : undefined,
    });
    ctx.chain.resetRpcCalls();
    const { value: found, ms } = await timed(() => ctx.server.jobs.runNow('scan-payments'));
    const calls = { ...ctx.chain.rpcCalls };
    const paid = await countPaid(ctx, [order.reference]);
    if (found !== 1 || paid !== 1)
      throw new Error(`scan-payments found ${found} payment(s); the order is ${paid ? '' : 'not '}PAID`);
    const how = withReference ? 'by reference' : 'by amount, no reference';
    report.rows.push({ name: `scan-payments, ${open} open orders, ${how}`, count: 1, totalMs: ms });
    report.notes.push(`scan, ${open} open orders (${how}): RPC calls ${callsByMethod(calls)}`);
  };

  await measuredScan(orders[0], true);
  const [template] = orders;
  if (!template) throw new Error('no scan order');
  await insertOrders(ctx, {
    template: template.reference,
    count: SIZES.scanLarge - (await countOpen(ctx, wallet.owner)),
    status: 'PENDING',
    baseUnits: 500_000_000n,
  });
  await measuredScan(orders[1], true);
  await measuredScan(orders[2], false);
}

// 6. Webhook delivery

async function benchWebhooks(ctx: Ctx, report: Report): Promise<void> {
  progress('webhook delivery');
  const receiver = await startReceiver();
  ctx.addCleanup('webhook receiver', receiver.close);
  await ctx.api.json('PATCH', '/users/me', { token: ctx.token, body: { webhook_url: receiver.url } });
  await ctx.api.json('POST', '/users/me/webhook-secret', { token: ctx.token });
  const n = SIZES.webhooks;
  await createOrders(ctx, n); // one order.created event, and one webhook task, each

  const pending = await sqlCount(
    ctx,
    `SELECT count(*)::int AS n FROM event_deliveries WHERE status = 'PENDING'`,
  );
  if (pending !== n) throw new Error(`${pending} webhook tasks are due, not ${n}`);
  const delivered = () =>
    sqlCount(ctx, `SELECT count(*)::int AS n FROM event_deliveries WHERE status = 'DELIVERED'`);
  const run = await runJobUntil(
    ctx,
    'deliver-events',
    async () => (await delivered()) === n,
    Math.ceil(n / SIZES.jobBatch) + 5,
  );
  if (receiver.received() !== n)
    throw new Error(`the receiver got ${receiver.received()} webhooks, not ${n}`);
  report.rows.push({ name: `deliver-events until ${n} webhooks delivered`, count: n, totalMs: run.ms });
  report.notes.push(`deliver-events: ${n} webhooks in ${run.runs} run(s) of batch ${SIZES.jobBatch}`);
}

// 7. EVM payments, end to end

function requireEvm(ctx: Ctx): EvmCtx {
  if (!ctx.evm) throw new Error('the local EVM chain was not started');
  return ctx.evm;
}

/** The 32-byte tag the transaction request appends to an EVM transfer for this order. */
function evmTag(reference: string): Hex {
  const bytes = decodeBase58(reference);
  if (!bytes || bytes.length !== 32) throw new Error(`order reference is not a 32-byte key: ${reference}`);
  return toHex(bytes);
}

async function benchEvmPayments(ctx: Ctx, report: Report): Promise<void> {
  const evm = requireEvm(ctx);
  progress(`the ${EVM_NETWORK} payment path (tx-request, sign and send, submit-tx, verify-payments)`);
  const n = SIZES.evmPayments;
  const orders = await createOrders(ctx, n, evm.wallet);
  const payers: LocalWallet[] = [];
  for (let i = 0; i < n; i++)
    payers.push(await evm.chain.newWallet({ token: evm.usdt, units: 1_000_000_000n }));

  const steps = { txRequest: [] as number[], send: [] as number[], submit: [] as number[] };
  const step = async <T>(samples: number[], fn: () => Promise<T>) => {
    const { value, ms } = await timed(fn);
    samples.push(ms);
    return value;
  };
  const flow = await sequential(`${EVM_NETWORK} pay: the three steps, per order`, n, async (i) => {
    const order = orders[i];
    const payer = payers[i];
    if (!order || !payer) throw new Error(`no order or payer ${i}`);
    const built = await step(steps.txRequest, () =>
      ctx.api.json<EvmTransactionResponse>(
        'GET',
        `/pay/tx-request/${order.reference}?account=${payer.address}`,
      ),
    );
    // Automine: the node answers once the transaction's block is mined.
    const txId = await step(steps.send, () =>
      evm.chain.sendTransaction({ from: payer, to: built.to as Address, data: built.data as Hex }),
    );
    await step(steps.submit, () =>
      ctx.api.json('POST', `/pay/${order.reference}/submit-tx`, { body: { txId }, expect: 202 }),
    );
  });
  report.rows.push(
    rowFrom(`${EVM_NETWORK} pay: GET /pay/tx-request/{ref}?account`, steps.txRequest),
    rowFrom(`${EVM_NETWORK} pay: payer signs, eth_sendRawTransaction`, steps.send),
    rowFrom(`${EVM_NETWORK} pay: POST /pay/{ref}/submit-tx`, steps.submit),
    flow,
  );

  // Every payment final before the verifier runs: each claim is settled at its first check.
  await evm.chain.mine(EVM_CONFIRMATIONS);
  const references = orders.map((o) => o.reference);
  evm.chain.resetRpcCalls();
  const verify = await runJobUntil(
    ctx,
    'verify-payments',
    async () => (await countPaid(ctx, references)) === n,
    Math.ceil(n / SIZES.jobBatch) + 5,
  );
  const calls = { ...evm.chain.rpcCalls };
  report.rows.push({ name: `${EVM_NETWORK} verify-payments until ${n} PAID`, count: n, totalMs: verify.ms });
  report.notes.push(
    `${EVM_NETWORK} verify-payments: ${n} payments verified in ${verify.runs} run(s) of batch ${SIZES.jobBatch}, ` +
      `${EVM_CONFIRMATIONS} confirmations; RPC calls ${callsByMethod(calls)} ` +
      `(${(totalCalls(calls) / n).toFixed(1)} per payment)`,
  );
}

// 8. An EVM scan cycle

async function benchEvmScan(ctx: Ctx, report: Report): Promise<void> {
  const evm = requireEvm(ctx);
  const { evmScanSmall, evmScanLarge, evmWallets, evmWalletsMore } = SIZES;
  progress(
    `${EVM_NETWORK} scan-payments with ${evmScanSmall} and ${evmScanLarge.toLocaleString('en')} open orders, ` +
      `1, ${evmWallets} and ${evmWalletsMore} watched wallets`,
  );
  await closeOpenOrders(ctx);
  const payer = await evm.chain.newWallet({ token: evm.usdt, units: 1_000_000_000_000n });
  const scan = () => ctx.server.jobs.runNow('scan-payments');
  const openOnNetwork = async () => {
    const [row] = await ctx.server.deps.db.sequelize.query<{ orders: number; wallets: number }>(
      `SELECT count(*)::int AS orders, count(DISTINCT recipient)::int AS wallets FROM orders
        WHERE network = :network AND status IN ('PENDING', 'CONFIRMING', 'UNDERPAID')`,
      { type: QueryTypes.SELECT, replacements: { network: EVM_NETWORK } },
    );
    return { orders: row?.orders ?? 0, wallets: row?.wallets ?? 0 };
  };

  /**
   * One scan cycle after the cursor caught up: `pay` given, one new payment nobody reports (tagged
   * with its order, or only of its exact amount), else none; either way the same number of new
   * final blocks to read. Timed, with its RPC calls.
   */
  const measuredScan = async (pay?: { order: Order | undefined; tagged: boolean }) => {
    await scan(); // the cursor is up to date
    const open = await openOnNetwork();
    if (pay) {
      if (!pay.order) throw new Error('no order to pay');
      await evm.chain.transfer({
        from: payer,
        token: evm.usdt,
        to: getAddress(pay.order.recipient),
        units: parseUnits(pay.order.amount),
        dataSuffix: pay.tagged ? evmTag(pay.order.reference) : undefined,
      });
      await evm.chain.mine(EVM_CONFIRMATIONS);
    } else await evm.chain.mine(EVM_CONFIRMATIONS + 1);
    evm.chain.resetRpcCalls();
    const { value: found, ms } = await timed(scan);
    const calls = { ...evm.chain.rpcCalls };
    const expected = pay ? 1 : 0;
    const paid = pay?.order ? await countPaid(ctx, [pay.order.reference]) : 0;
    if (found !== expected || paid !== expected)
      throw new Error(`scan-payments found ${found} payment(s), not ${expected}; ${paid} order(s) PAID`);
    const how = !pay
      ? 'no new payment'
      : pay.tagged
        ? 'one payment, by tag'
        : 'one payment, by amount, no tag';
    const where = `${open.orders} open orders, ${open.wallets} wallet${open.wallets === 1 ? '' : 's'}`;
    report.rows.push({ name: `${EVM_NETWORK} scan-payments, ${where}, ${how}`, count: 1, totalMs: ms });
    report.notes.push(
      `${EVM_NETWORK} scan, ${where} (${how}): RPC calls ${callsByMethod(calls)} (${totalCalls(calls)})`,
    );
    return totalCalls(calls);
  };

  /** `count` new wallets, each with `perWallet` open orders (one through the API, the rest inserted). */
  let walletsAdded = 0;
  const openWallets = async (count: number, perWallet: number) => {
    const opened: Order[] = [];
    for (let i = 0; i < count; i++)
      opened.push(...(await createOrders(ctx, 1, await addEvmWallet(ctx, `evm scan ${++walletsAdded}`))));
    await insertOrders(ctx, {
      template: opened.map((o) => o.reference),
      count: perWallet - 1,
      status: 'PENDING',
      baseUnits: 600_000_000n,
    });
    /** The API-made order of the wallet in the middle, to pay. */
    return opened[Math.floor(opened.length / 2)];
  };

  // One wallet with a few open orders; its first cycle starts the token's cursor.
  const wallet = await addEvmWallet(ctx, 'evm scan');
  const orders = await createOrders(ctx, evmScanSmall, wallet);
  evm.chain.resetRpcCalls();
  await scan();
  const head = await evm.chain.blockNumber();
  report.notes.push(
    `${EVM_NETWORK} scan, the first cycle of a new cursor (a binary search on block times for the ` +
      `oldest watched order, chain of ${head} blocks): RPC calls ${callsByMethod(evm.chain.rpcCalls)}; ` +
      `later cycles read from the cursor, eth_getLogs ranges of ${ctx.server.deps.config.EVM_LOG_RANGE} blocks`,
  );
  const small = { idle: await measuredScan(), paid: await measuredScan({ order: orders[0], tagged: true }) };

  // The same wallet with 10,000 open orders.
  const [template] = orders;
  if (!template) throw new Error('no scan order');
  await insertOrders(ctx, {
    template: template.reference,
    count: evmScanLarge - (await countOpen(ctx, wallet.address)),
    status: 'PENDING',
    baseUnits: 500_000_000n,
  });
  const large = { idle: await measuredScan(), paid: await measuredScan({ order: orders[1], tagged: true }) };
  await measuredScan({ order: orders[2], tagged: false });
  report.notes.push(
    `${EVM_NETWORK} scan RPC calls per cycle, ${evmScanLarge.toLocaleString('en')} vs ${evmScanSmall} open orders on one wallet: ` +
      `no new payment ${versus(small.idle, large.idle)}, one payment by tag ${versus(small.paid, large.paid)}`,
  );

  // 100 watched wallets, as many open orders each as the one wallet above had; then 250.
  await closeOpenOrders(ctx);
  const toPay = await openWallets(evmWallets, evmScanSmall);
  const many = { idle: await measuredScan(), paid: await measuredScan({ order: toPay, tagged: true }) };
  const toPayToo = await openWallets(evmWalletsMore - evmWallets, evmScanSmall);
  const most = { idle: await measuredScan(), paid: await measuredScan({ order: toPayToo, tagged: true }) };
  report.notes.push(
    `${EVM_NETWORK} scan RPC calls per cycle, ${evmWallets} vs 1 watched wallets (${evmScanSmall} open orders each): ` +
      `no new payment ${versus(small.idle, many.idle)}, one payment by tag ${versus(small.paid, many.paid)}; ` +
      `${evmWalletsMore} wallets: ${most.idle} and ${most.paid}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Printing

async function machineFacts(ctx: Ctx): Promise<string[]> {
  const [pg] = await ctx.server.deps.db.sequelize.query<{ server_version: string }>('SHOW server_version', {
    type: QueryTypes.SELECT,
  });
  const cpus = os.cpus();
  return [
    `node ${process.version} · ${os.type()} ${os.release()} ${os.arch()} · ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ''}`,
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM · load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} · PostgreSQL ${pg?.server_version ?? '?'} (embedded) · local Solana chain (litesvm)` +
      (ctx.evm ? ` · local EVM chain (Hardhat node, chain id ${EVM_CHAIN_ID})` : ''),
  ];
}

function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}

function printReport(facts: string[], report: Report): void {
  const header = ['name', 'count', 'total ms', 'ms/op', 'ops/s', 'p50 ms', 'p95 ms'];
  const lines = report.rows.map((row) => [
    row.name,
    String(row.count),
    formatMs(row.totalMs),
    formatMs(row.totalMs / row.count),
    (row.count / (row.totalMs / 1000)).toFixed(row.count / (row.totalMs / 1000) >= 100 ? 0 : 1),
    row.samplesMs && row.count > 1 ? formatMs(percentile(row.samplesMs, 50)) : '-',
    row.samplesMs && row.count > 1 ? formatMs(percentile(row.samplesMs, 95)) : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');

  console.log('\nstablepay benchmarks');
  for (const fact of facts) console.log(fact);
  console.log('Numbers are for comparing runs on the same machine, not absolute figures.');
  console.log('Concurrent rows: total is wall time, p50/p95 each request; job rows: the runs alone.\n');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
  console.log('');
  for (const note of report.notes) console.log(`- ${note}`);
}

// ---------------------------------------------------------------------------------------------

// 9. Payment final -> webhook received, with a second instance that only delivers events

/**
 * A payment is verified (the order becomes PAID) in the bench's server; a second instance on the
 * same database runs only deliver-events, on its default schedule (every 2 s). The time from the
 * PAID commit to the webhook's arrival shows whether the sender is woken (LISTEN/NOTIFY) or waits
 * for its next run.
 */
async function benchWakeups(ctx: Ctx, report: Report): Promise<void> {
  progress('payment final -> webhook received (a second instance runs deliver-events only)');
  const receiver = await startWebhookReceiver();
  ctx.addCleanup('wake-up webhook receiver', receiver.stop);
  await ctx.api.json('POST', '/users/me/webhook-secret', { token: ctx.token });
  await ctx.api.json('PATCH', '/users/me', { token: ctx.token, body: { webhook_url: receiver.url } });
  const sender = await startServer(
    loadConfig({
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: ctx.server.deps.db.url,
      JOBS: 'deliver-events',
      SOLANA_RPC_URL: 'http://127.0.0.1:9',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    }),
  );
  ctx.addCleanup('deliver-events instance', () => sender.stop());
  await sleep(500); // its listener connects

  const n = SIZES.wakeups;
  const orders = await createOrders(ctx, n);
  for (const order of orders) {
    const payer = await ctx.chain.newPayer({ mint: ctx.mint, units: 1_000_000_000n });
    const built = await ctx.api.json<SolanaTransactionResponse>(
      'GET',
      `/pay/tx-request/${order.reference}?account=${payer.publicKey.toBase58()}`,
    );
    const txId = await ctx.chain.signAndSend(built.transaction, payer);
    await ctx.api.json('POST', `/pay/${order.reference}/submit-tx`, { body: { txId }, expect: 202 });
  }
  const references = orders.map((o) => o.reference);
  await runJobUntil(ctx, 'verify-payments', async () => (await countPaid(ctx, references)) === n, 10);
  const deadline = Date.now() + 15_000;
  const paidHooks = () =>
    receiver.received.filter(
      (h) => h.json.type === 'order.paid' && references.includes(String(h.json.data.order.reference)),
    );
  while (paidHooks().length < n && Date.now() < deadline) await sleep(20);
  const latencies = paidHooks().map(
    (h) => h.at - Date.parse(String((h.json as { createdAt?: string }).createdAt)),
  );
  if (latencies.length < n) throw new Error(`${latencies.length} of ${n} order.paid webhooks arrived`);
  report.rows.push(rowFrom('payment final (PAID committed) -> order.paid webhook received', latencies));
  report.notes.push(
    `wake-ups: the deliver-events instance polls every 2 s by schedule; ${n} order.paid webhooks arrived p50 ${percentile(latencies, 50).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms after PAID`,
  );
}

async function runBenches(ctx: Ctx, parts: ReadonlySet<Part>): Promise<Report> {
  const report: Report = { rows: [], notes: [] };
  if (parts.has('orders') || parts.has('listing') || parts.has('qr')) {
    // Listing and QR codes work on orders of their own; unmeasured when POST /orders is not a part.
    const created = parts.has('orders')
      ? await benchCreateOrders(ctx, report)
      : await createOrders(ctx, SIZES.qr);
    const [template] = created;
    if (!template) throw new Error('no order was created');
    if (parts.has('listing')) await benchListing(ctx, report, template.reference);
    if (parts.has('qr')) await benchQr(ctx, report, created);
  }
  if (parts.has('payments')) await benchPayments(ctx, report);
  if (parts.has('scan')) await benchScan(ctx, report);
  if (parts.has('webhooks')) await benchWebhooks(ctx, report);
  if (parts.has('evm-payments')) await benchEvmPayments(ctx, report);
  if (parts.has('evm-scan')) await benchEvmScan(ctx, report);
  if (parts.has('wakeups')) await benchWakeups(ctx, report);
  return report;
}

/** The parts `--only` names (every part without it); null, after saying why, when it names none. */
function selectedParts(): Set<Part> | null {
  let only: string | undefined;
  try {
    only = parseArgs({ options: { only: { type: 'string' } } }).values.only;
  } catch (error) {
    console.error(errorMessage(error));
    return null;
  }
  if (only === undefined) return new Set(PARTS);
  const parts = new Set<Part>();
  for (const name of only.split(',').map((p) => p.trim().toLowerCase())) {
    const group = Object.hasOwn(PART_GROUPS, name)
      ? PART_GROUPS[name]
      : PARTS.includes(name as Part)
        ? [name as Part]
        : undefined;
    if (!group) {
      console.error(
        `Unknown part "${name}" in --only: one of ${[...PARTS, ...Object.keys(PART_GROUPS)].join(', ')}`,
      );
      return null;
    }
    group.forEach((part) => parts.add(part));
  }
  return parts;
}

async function main(): Promise<number> {
  const parts = selectedParts();
  if (!parts) return 2;
  const cleanup = createCleanup(CLEANUP_STEP_TIMEOUT_MS);
  const finish = finisher(cleanup);
  const run = stopOnSignals(finish, progress);

  try {
    const started = now();
    const ctx = await setUp(cleanup, { evm: parts.has('evm-payments') || parts.has('evm-scan') });
    const facts = await machineFacts(ctx);
    const report = await runBenches(ctx, parts);
    printReport(facts, report);
    if (parts.has('request-path')) {
      const path = await benchRequestPath(cleanup.add, progress, {
        seconds: Number(process.env.BENCH_SECONDS ?? 5),
        depthRows: Number(process.env.BENCH_DEPTH_ROWS ?? 100_000),
        rounds: Number(process.env.BENCH_ROUNDS ?? 3),
      });
      console.log(
        '\nrequest path, each route against its bare baseline in the same run (ratio = req/s ÷ baseline req/s,\n' +
          'the median of rounds measuring both back to back; medians of req/s and latencies)\n',
      );
      printPathReport(path, (line) => console.log(line));
    }
    console.log(`\nwhole run (set-up included): ${((now() - started) / 1000).toFixed(1)} s`);
    return await finish(0);
  } catch (error) {
    // Interrupted: what fails next is the cleanup pulling the stack away, not a finding.
    if (!run.interrupted)
      console.error('bench failed:', error instanceof Error ? (error.stack ?? error.message) : error);
    return finish(1);
  }
}

// Exit explicitly once everything is cleaned up (keep-alive sockets must not hold the process).
main().then((code) => process.exit(code));
