/**
 * `npm run scale:check`: three stablepay instances on one PostgreSQL behind HAProxy
 * (deploy/haproxy.cfg), a payment workload through the balancer, one instance killed with SIGKILL
 * half-way through (and started again later), then a report of what a merchant would have seen:
 * requests that failed beyond the client's retries, webhooks delivered exactly once, more than
 * once or never, and background work done once per slot (each order expired once, each payment
 * verified once). A check that prints its figures and exits non-zero on a violation; not part of
 * `npm test`.
 *
 * Everything listens on 127.0.0.1: a fresh database created for the run on DATABASE_URL's server
 * (default postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end, the local Solana
 * chain (litesvm behind JSON-RPC, in this process), a webhook receiver (in this process), three
 * `tsx server/main.ts` processes with NODE_ENV=production and every job on (JOBS=all), and
 * `haproxy -f deploy/haproxy.cfg -db` in front of them. Each child runs in a process group of its
 * own and is stopped at the end, on failure and on Ctrl-C; if this process is killed outright, a
 * small guard process kills the groups and drops the database.
 *
 *   npm run scale:check
 *   DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres npm run scale:check
 *
 * Needs haproxy (Debian/Ubuntu: apt-get install haproxy) and a PostgreSQL whose user may CREATE
 * DATABASE. Takes about a minute.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Keypair, PublicKey } from '@solana/web3.js';
import pg from 'pg';
import { QueryTypes } from 'sequelize';
import type { Order } from '../contract';
import { loadConfig } from '../server/config';
import { openDatabase, type Database } from '../server/db/database';
import { parseUnits } from '../server/lib/decimal';
import { createMerchant } from '../server/merchants/create-merchant';
import { freePort } from '../test/support/free-port';
import { startLocalSolana, type LocalSolana } from '../test/support/solana/local-solana';
import { startWebhookReceiver, type ReceivedWebhook } from '../test/support/webhook-receiver';
import { createCleanup, errorMessage, finisher, stopOnSignals, type Cleanup } from './lib/cleanup';
import { percentile } from './lib/percentile';

const ROOT = path.resolve(import.meta.dirname, '..');
const HAPROXY_CFG = path.join(ROOT, 'deploy', 'haproxy.cfg');
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The workload: fixed, so every run does the same work. */
const SIZES = {
  /** Orders paid on chain: half carry the reference, half only the (unique) amount; half reported. */
  paid: 60,
  /** Orders whose expires_at is moved into the past, for the expiry job. */
  expiring: 10,
  /** Payers at work at once (each: create, open the checkout page, pay, watch it until PAID). */
  concurrency: 6,
} as const;
/** The payer scans the QR code and confirms in the wallet; the checkout page polls meanwhile. */
const PAYER_DELAY_MS = 1_500;
/** The checkout page's status poll (GET /pay/{reference}/info), until PAID or the limit. */
const POLL_MS = 300;
const POLL_LIMIT_MS = 8_000;
/** Shared among the orders, so concurrent creations on different instances must keep them unique. */
const AMOUNTS = ['10.00', '12.50', '15.00', '20.00', '25.00'];
const INSTANCES = 3;
/** The instance killed with SIGKILL (1-based), at this share of the workload; started again after a while. */
const KILLED = 3;
const KILL_AT = 0.5;
const RESTART_AFTER_MS = 3_000;

/** The client: attempts per call (the first included), backoff doubling from this, time per attempt. */
const CLIENT_ATTEMPTS = 4;
const CLIENT_BACKOFF_MS = 250;
const REQUEST_TIMEOUT_MS = 20_000;

/** Bounds: start-up of each process, convergence after the workload, late duplicates, the whole run. */
const START_TIMEOUT_MS = 60_000;
const CONVERGE_TIMEOUT_MS = 90_000;
const SETTLE_MS = 3_000;
const RUN_TIMEOUT_MS = 6 * 60_000;
const CLEANUP_STEP_TIMEOUT_MS = 20_000;

const EMAIL = 'scale-check@stablepay.local';
const PASSWORD = 'scale-check-password-123';
/** Never contacted (no EVM orders, static rates, no messenger): a closed local port all the same. */
const CLOSED = 'http://127.0.0.1:9';

const progress = (message: string) => process.stderr.write(`· ${message}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------
// Cleanup, child processes, and runs that were killed before they could clean up

const TEMP_PREFIX = 'stablepay-scale-';
/** What the guard undoes if this process is killed before its cleanup is done. */
type RunRecord = { database?: string; groups: number[] };

/** Signals a whole process group; false when it is gone. */
function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * A guard for a run killed outright (SIGKILL; tsx also kills a child that is slow to acknowledge
 * Ctrl-C): a small process of its own holding a pipe from this one. When the pipe closes (this
 * process ended, however), it reads the run's record: if the run folder still lists process
 * groups (the cleanup did not get to the end), it kills them, drops the database and removes the
 * folder. After a normal cleanup the folder is gone (or kept for its logs with nothing listed).
 */
const GUARD = `
const fs = require('node:fs');
const path = require('node:path');
const file = process.argv[1];
process.stdin.resume();
process.stdin.on('end', async () => {
  let record;
  try { record = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { process.exit(0); }
  if (record.groups.length === 0 && !record.database) process.exit(0);
  for (const pgid of record.groups) try { process.kill(-pgid, 'SIGKILL'); } catch {}
  if (record.database) {
    const client = new (require('pg').Client)({ connectionString: process.env.SCALE_ADMIN_URL });
    try {
      await client.connect();
      await client.query('DROP DATABASE IF EXISTS "' + record.database + '" WITH (FORCE)');
    } catch {}
    await client.end().catch(() => {});
  }
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  process.exit(0);
});
`;

function startGuard(recordFile: string, serverUrl: string): void {
  const guard = spawn(process.execPath, ['-e', GUARD, recordFile], {
    cwd: ROOT,
    env: { SCALE_ADMIN_URL: serverUrl },
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  guard.unref();
  (guard.stdin as unknown as { unref?: () => void } | null)?.unref?.();
}

type Child = {
  name: string;
  proc: ChildProcess;
  logFile: string;
  exit: Promise<string>;
  exited(): boolean;
};

/**
 * A child in a process group of its own (detached): stopping it stops everything it started
 * (tsx runs the server in a second process). Output goes to `logFile`.
 */
function startChild(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  record: (pgid: number) => void,
): Child {
  const out = fs.openSync(logFile, 'a');
  const proc = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  if (proc.pid !== undefined) record(proc.pid);
  let done = false;
  const exit = new Promise<string>((resolve) => {
    proc.once('error', (error) => {
      done = true;
      resolve(`failed to start: ${error.message}`);
    });
    proc.once('exit', (code, signal) => {
      done = true;
      resolve(signal ? `killed by ${signal}` : `exited with code ${code}`);
    });
  });
  return { name, proc, logFile, exit, exited: () => done };
}

/** SIGTERM to the group (a graceful stop), SIGKILL to whatever of it is left after `graceMs`. */
async function stopChild(child: Child, graceMs = 10_000): Promise<void> {
  const pgid = child.proc.pid;
  if (pgid === undefined) return;
  if (!child.exited()) {
    signalGroup(pgid, 'SIGTERM');
    await Promise.race([child.exit, sleep(graceMs)]);
  }
  signalGroup(pgid, 'SIGKILL');
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

// ---------------------------------------------------------------------------------------------
// The database

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const dropDatabase = (serverUrl: string, name: string) =>
  adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// The client: through the balancer, retrying what a careful client retries

type ClientStats = {
  calls: number;
  attempts: number;
  retriedCalls: number;
  retryReasons: Map<string, number>;
  failedBeyondRetries: { call: string; reason: string }[];
  unexpected: { call: string; reason: string }[];
};

type CallOptions = { token?: string; body?: unknown; expect?: number; idempotencyKey?: string };

/**
 * Connection errors, timeouts, 502, 503 and 504 are retried with backoff (so is a 429, after its
 * Retry-After, and a 409 saying the same Idempotency-Key is still in progress): POST /orders sends
 * the same Idempotency-Key every time, submit-tx the same txId. What still fails after
 * CLIENT_ATTEMPTS is counted, as is any other unexpected answer.
 */
function createClient(baseUrl: string) {
  const stats: ClientStats = {
    calls: 0,
    attempts: 0,
    retriedCalls: 0,
    retryReasons: new Map(),
    failedBeyondRetries: [],
    unexpected: [],
  };

  async function call<T>(method: string, urlPath: string, opts: CallOptions = {}): Promise<T | null> {
    const name = `${method} ${urlPath.replace(/\/[1-9A-HJ-NP-Za-km-z]{32,44}(?=\/|$)/, '/{reference}')}`;
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    const expected = opts.expect ?? 200;
    stats.calls++;
    let lastReason = '';
    for (let attempt = 1; attempt <= CLIENT_ATTEMPTS; attempt++) {
      if (attempt === 2) stats.retriedCalls++;
      stats.attempts++;
      let retryAfterMs = CLIENT_BACKOFF_MS * 2 ** (attempt - 1);
      try {
        const res = await fetch(`${baseUrl}${urlPath}`, {
          method,
          headers,
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await res.text();
        if (res.status === expected) {
          try {
            return (text ? JSON.parse(text) : null) as T;
          } catch {
            stats.unexpected.push({
              call: name,
              reason: `${res.status} without JSON: ${text.slice(0, 200)}`,
            });
            return null;
          }
        }
        const inProgress = res.status === 409 && /in progress/i.test(text);
        if (![429, 502, 503, 504].includes(res.status) && !inProgress) {
          stats.unexpected.push({ call: name, reason: `${res.status}: ${text.slice(0, 200)}` });
          return null;
        }
        lastReason = inProgress ? '409 key in progress' : String(res.status);
        const retryAfter = Number(res.headers.get('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = Math.min(retryAfter * 1000, 5_000);
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        lastReason =
          (error as Error).name === 'TimeoutError'
            ? 'timeout'
            : (cause?.code ?? (error as Error).message ?? 'network error');
      }
      stats.retryReasons.set(lastReason, (stats.retryReasons.get(lastReason) ?? 0) + 1);
      if (attempt < CLIENT_ATTEMPTS) await sleep(retryAfterMs * (0.75 + Math.random() / 2));
    }
    stats.failedBeyondRetries.push({ call: name, reason: lastReason });
    return null;
  }

  return { call, stats };
}

type Client = ReturnType<typeof createClient>;

// ---------------------------------------------------------------------------------------------
// HAProxy's view (its stats page, CSV)

type ServerStat = {
  name: string;
  status: string;
  /** Requests it is serving now. */
  current: number;
  sessions: number;
  retries: number;
  redispatches: number;
  http5xx: number;
  downs: number;
};

async function readHaproxyStats(statsUrl: string): Promise<ServerStat[]> {
  const res = await fetch(`${statsUrl}/stats;csv`, { signal: AbortSignal.timeout(5_000) });
  const [header, ...rows] = (await res.text()).trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const col = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? '';
  return rows
    .map((row) => row.split(','))
    .filter((cells) => col(cells, 'pxname') === 'stablepay_instances' && col(cells, 'svname') !== 'BACKEND')
    .map((cells) => ({
      name: col(cells, 'svname'),
      status: col(cells, 'status'),
      current: Number(col(cells, 'scur')) || 0,
      sessions: Number(col(cells, 'stot')) || 0,
      retries: Number(col(cells, 'wretr')) || 0,
      redispatches: Number(col(cells, 'wredis')) || 0,
      http5xx: Number(col(cells, 'hrsp_5xx')) || 0,
      downs: Number(col(cells, 'chkdown')) || 0,
    }));
}

async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = errorMessage(error); // not there yet
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${seconds(timeoutMs)}${last ? ` (last: ${last})` : ''}`);
    await sleep(200);
  }
}

async function answers200(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await res.arrayBuffer();
  return res.status === 200;
}

// ---------------------------------------------------------------------------------------------
// The stack

type Stack = {
  dir: string;
  db: Database;
  merchantId: string;
  chain: LocalSolana;
  mint: PublicKey;
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  instances: Child[];
  ports: number[];
  haproxy: Child;
  lbUrl: string;
  statsUrl: string;
  startInstance(index: number): Child;
  /** After a child's whole group was killed. */
  forget(child: Child): void;
  haproxyVersion: string;
  postgresVersion: string;
};

function haproxyVersion(): string | null {
  const probe = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return null;
  return /version (\S+)/.exec(probe.stdout)?.[1] ?? 'unknown';
}

/** Process groups of children not known to be gone, for the last-resort kill at exit. */
const childGroups = new Set<number>();

/** Where the logs are, and whether to keep them (a failed run does). */
type RunState = { dir?: string; keepLogs: boolean };

async function setUp(cleanup: Cleanup, serverUrl: string, state: RunState): Promise<Stack> {
  const version = haproxyVersion();
  if (!version) throw new Error('haproxy is not installed'); // checked in main() already

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  const recordFile = path.join(dir, 'run.json');
  const record: RunRecord = { groups: [] };
  const saveRecord = () => fs.writeFileSync(recordFile, JSON.stringify(record));
  saveRecord();
  startGuard(recordFile, serverUrl);
  state.dir = dir;
  cleanup.add('run folder', async () => {
    // Kept for its logs, with nothing left for the guard to undo.
    if (state.keepLogs) fs.writeFileSync(recordFile, JSON.stringify({ groups: [] }));
    else fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });

  const database = `stablepay_scale_${process.pid}_${Date.now()}`;
  progress(`creating database ${database} on ${new URL(serverUrl).host}`);
  record.database = database;
  saveRecord();
  await adminQuery(serverUrl, `CREATE DATABASE "${database}"`);
  cleanup.add('database', () => dropDatabase(serverUrl, database));
  const runUrl = databaseUrl(serverUrl, database);

  const db = await openDatabase(
    loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATABASE_URL: runUrl }),
  ).catch((error: unknown) => {
    throw new Error(`cannot open ${database}: ${errorMessage(error)}`);
  });
  cleanup.add('database connection', () => db.close());
  const [pgVersion] = await select<{ server_version: string }>(db, 'SHOW server_version');
  const merchant = await createMerchant(db.models, { email: EMAIL, password: PASSWORD, name: 'Scale Shop' });

  progress('starting the local Solana chain and the webhook receiver');
  const chain = await startLocalSolana();
  cleanup.add('local Solana chain', () => chain.stop());
  const mint = await chain.createMint();
  const receiver = await startWebhookReceiver();
  cleanup.add('webhook receiver', () => receiver.stop());

  const ports: number[] = [];
  for (let i = 0; i < INSTANCES; i++) ports.push(await freePort());
  const lbPort = await freePort();
  const statsPort = await freePort();
  const lbUrl = `http://127.0.0.1:${lbPort}`;
  const statsUrl = `http://127.0.0.1:${statsPort}`;

  // Only what is given here, never the caller's environment (it may name a real database).
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    ...(process.env.TMPDIR && { TMPDIR: process.env.TMPDIR }),
  };
  const shared: NodeJS.ProcessEnv = {
    ...base,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: lbUrl,
    DATABASE_URL: runUrl,
    // Identical on every instance: a token from one is accepted by all, a secret sealed by one is
    // opened by all.
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
    JOBS: 'all',
    JOB_DELIVER_EVENTS_CRON: '*/1 * * * * *',
    JOB_VERIFY_PAYMENTS_CRON: '*/1 * * * * *',
    JOB_SCAN_PAYMENTS_CRON: '*/2 * * * * *',
    JOB_EXPIRE_ORDERS_CRON: '*/2 * * * * *',
    // Work leased by the killed instance is taken over within the run: claims and scan cursors
    // after 10 s, webhook deliveries after their 10 s send timeout plus 5 s.
    JOB_LEASE_SECONDS: '10',
    WEBHOOK_LEASE_GRACE_MS: '5000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    API_RATE_LIMIT_PER_SECOND: '10000',
    SOLANA_RPC_URL: chain.url,
    USDT_MINT_SOLANA: mint.toBase58(),
    ETHEREUM_RPC_URL: CLOSED,
    POLYGON_RPC_URL: CLOSED,
    FX_PROVIDER: 'static',
    FX_COINBASE_URL: CLOSED,
    MESSENGER_API_BASE_URL: CLOSED,
  };
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const remember = (pgid: number) => {
    childGroups.add(pgid);
    record.groups.push(pgid);
    saveRecord();
  };
  /** A child whose whole group is gone: nothing left to kill, and its id may be reused. */
  const forget = (child: Child) => {
    childGroups.delete(child.proc.pid ?? -1);
    record.groups = record.groups.filter((pgid) => pgid !== child.proc.pid);
    saveRecord();
  };
  const stopAndForget = async (child: Child, graceMs?: number) => {
    await stopChild(child, graceMs);
    forget(child);
  };
  const startInstance = (index: number): Child => {
    if (cleanup.started()) throw new Error('stopping: no instance is started any more');
    const child = startChild(
      `instance ${index + 1}`,
      tsx,
      ['server/main.ts'],
      { ...shared, PORT: String(ports[index]) },
      path.join(dir, `instance-${index + 1}.log`),
      remember,
    );
    cleanup.add(child.name, () => stopAndForget(child));
    return child;
  };

  progress(`starting ${INSTANCES} instances (tsx server/main.ts) on ports ${ports.join(', ')}`);
  const instances = ports.map((_, i) => startInstance(i));
  await Promise.all(
    instances.map((child, i) =>
      Promise.race([
        waitFor(`${child.name} GET /readyz`, START_TIMEOUT_MS, () =>
          answers200(`http://127.0.0.1:${ports[i]}/readyz`),
        ),
        child.exit.then((how) => {
          throw new Error(`${child.name} ${how}:\n${tail(child.logFile)}`);
        }),
      ]),
    ),
  );

  progress(`starting haproxy ${version} (haproxy -f deploy/haproxy.cfg -db) on ${lbUrl}`);
  const haproxy = startChild(
    'haproxy',
    'haproxy',
    ['-f', HAPROXY_CFG, '-db'],
    {
      ...base,
      STABLEPAY_LB_BIND: `127.0.0.1:${lbPort}`,
      STABLEPAY_LB_STATS: `127.0.0.1:${statsPort}`,
      STABLEPAY_1: `127.0.0.1:${ports[0]}`,
      STABLEPAY_2: `127.0.0.1:${ports[1]}`,
      STABLEPAY_3: `127.0.0.1:${ports[2]}`,
    },
    path.join(dir, 'haproxy.log'),
    remember,
  );
  cleanup.add('haproxy', () => stopAndForget(haproxy, 5_000));
  await Promise.race([
    waitFor('haproxy with every instance UP', START_TIMEOUT_MS, async () => {
      const servers = await readHaproxyStats(statsUrl);
      if (servers.length !== INSTANCES || !servers.every((s) => s.status === 'UP'))
        throw new Error(servers.map((s) => `${s.name} ${s.status}`).join(', '));
      const res = await fetch(`${lbUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status !== 200)
        throw new Error(`GET /readyz through haproxy: ${res.status} ${await res.text()}`);
      return true;
    }),
    haproxy.exit.then((how) => {
      throw new Error(`haproxy ${how}:\n${tail(haproxy.logFile)}`);
    }),
  ]);

  return {
    dir,
    db,
    merchantId: merchant.id,
    chain,
    mint,
    receiver,
    instances,
    ports,
    haproxy,
    lbUrl,
    statsUrl,
    startInstance,
    forget,
    haproxyVersion: version,
    postgresVersion: pgVersion?.server_version ?? '?',
  };
}

// ---------------------------------------------------------------------------------------------
// The workload

type Task =
  | { kind: 'pay'; key: string; amount: string; withReference: boolean; report: boolean }
  | { kind: 'expire'; key: string; amount: string };

type PaidOrder = {
  reference: string;
  withReference: boolean;
  reported: boolean;
  txId: string;
  /** When the payment was sent (epoch ms, to compare with the database's times). */
  sentAtWall: number;
  /** Payment sent -> the checkout page's poll saw PAID (unset: not within POLL_LIMIT_MS). */
  seenPaidMs?: number;
};

const kindOf = (p: PaidOrder) =>
  `${p.withReference ? 'reference' : 'amount only'}${p.reported ? ' + submit-tx' : ', scanner'}`;

type Timeline = {
  start: number;
  killedAt?: number;
  killedAfter?: string;
  /** Requests HAProxy had on the instance when it was killed. */
  servingAtKill?: number;
  chaosError?: string;
  restartedAt?: number;
  backInRotationAt?: number;
  workloadDoneAt?: number;
  convergedAt?: number;
};

function buildTasks(runId: string): Task[] {
  const tasks: Task[] = [];
  const total = SIZES.paid + SIZES.expiring;
  const every = Math.floor(total / SIZES.expiring);
  let paid = 0;
  for (let i = 0; i < total; i++) {
    const amount = AMOUNTS[i % AMOUNTS.length] ?? '10.00';
    const key = `scale-${runId}-${i}`;
    if (i % every === every - 1 && tasks.filter((t) => t.kind === 'expire').length < SIZES.expiring)
      tasks.push({ kind: 'expire', key, amount });
    else {
      // 0: reference + reported; 1: amount only + reported; 2: reference, found by the scanner;
      // 3: amount only, found by the scanner.
      tasks.push({ kind: 'pay', key, amount, withReference: paid % 2 === 0, report: paid % 4 < 2 });
      paid++;
    }
  }
  return tasks;
}

async function runWorkload(
  stack: Stack,
  client: Client,
  timeline: Timeline,
): Promise<{ paid: PaidOrder[]; expiring: string[]; created: number; chainErrors: string[] }> {
  const { call } = client;
  const login = await call<{ token: string }>('POST', '/auth/login', {
    body: { email: EMAIL, password: PASSWORD },
  });
  if (!login) throw new Error('cannot log in through the balancer');
  const token = login.token;
  const owner = Keypair.generate().publicKey;
  const wallet = await call<{ wallet_id: string }>('POST', '/users/me/wallets', {
    token,
    body: { network: 'SOLANA', public_address: owner.toBase58(), name: 'scale check' },
    expect: 201,
  });
  if (!wallet) throw new Error('cannot add the wallet through the balancer');
  if (!(await call('POST', '/users/me/webhook-secret', { token })))
    throw new Error('cannot set the webhook secret through the balancer');
  if (!(await call('PATCH', '/users/me', { token, body: { webhook_url: stack.receiver.url } })))
    throw new Error('cannot set the webhook URL through the balancer');

  const tasks = buildTasks(randomBytes(4).toString('hex'));
  progress(`funding ${SIZES.paid} payers on the local chain`);
  const payers: Keypair[] = [];
  for (let i = 0; i < SIZES.paid; i++)
    payers.push(await stack.chain.newPayer({ mint: stack.mint, units: 1_000_000_000n }));

  const paid: PaidOrder[] = [];
  const expiring: string[] = [];
  const chainErrors: string[] = [];
  let created = 0;
  let next = 0;
  let done = 0;
  const killIndex = KILLED - 1;
  const victimName = `instance${KILLED}`;

  /**
   * Half-way, as soon as HAProxy has a request on the victim (or after 3 s), SIGKILL to its process
   * group; RESTART_AFTER_MS later it is started again, and followed until HAProxy has it back.
   */
  const killAndRestart = async () => {
    const victim = stack.instances[killIndex];
    if (victim?.proc.pid === undefined) return;
    const deadline = performance.now() + 3_000;
    let serving = 0;
    while (performance.now() < deadline) {
      const servers = await readHaproxyStats(stack.statsUrl).catch(() => [] as ServerStat[]);
      serving = servers.find((x) => x.name === victimName)?.current ?? 0;
      if (serving > 0) break;
      await sleep(10);
    }
    signalGroup(victim.proc.pid, 'SIGKILL');
    timeline.killedAt = performance.now();
    timeline.killedAfter = `${done} of ${tasks.length} orders done`;
    timeline.servingAtKill = serving;
    progress(`SIGKILL to instance ${KILLED} (${timeline.killedAfter}, serving ${serving} request(s))`);

    await victim.exit;
    stack.forget(victim);
    await sleep(RESTART_AFTER_MS);
    progress(`starting instance ${KILLED} again`);
    timeline.restartedAt = performance.now();
    stack.instances[killIndex] = stack.startInstance(killIndex);
    await waitFor(`instance ${KILLED} back in HAProxy's rotation`, START_TIMEOUT_MS, async () => {
      const servers = await readHaproxyStats(stack.statsUrl);
      return servers.find((x) => x.name === victimName)?.status === 'UP';
    });
    timeline.backInRotationAt = performance.now();
  };
  let chaos: Promise<void> | undefined;

  const afterTask = () => {
    done++;
    // Caught here: an error must wait for the end of the workload, not surface as an unhandled rejection.
    if (!chaos && done >= tasks.length * KILL_AT)
      chaos = killAndRestart().catch((error: unknown) => {
        timeline.chaosError = errorMessage(error);
      });
  };

  let payerIndex = 0;
  const runTask = async (task: Task) => {
    const order = await call<Order>('POST', '/orders', {
      token,
      idempotencyKey: task.key,
      body: { network: 'SOLANA', token: 'USDT', amount: task.amount, merchantWalletId: wallet.wallet_id },
      expect: 201,
    });
    if (!order) return;
    created++;
    if (task.kind === 'expire') {
      await stack.db.sequelize.query(
        `UPDATE orders SET expires_at = now() - interval '1 second' WHERE reference = :reference`,
        { replacements: { reference: order.reference } },
      );
      expiring.push(order.reference);
      return;
    }
    const payer = payers[payerIndex++];
    if (!payer) throw new Error('no payer left');
    const info = () => call<{ status: string }>('GET', `/pay/${order.reference}/info`);
    // The checkout page polls while the payer gets the wallet out.
    const until = performance.now() + PAYER_DELAY_MS;
    while (performance.now() < until) {
      await info();
      await sleep(Math.min(POLL_MS, Math.max(0, until - performance.now())));
    }
    let txId: string;
    try {
      txId = await stack.chain.transfer({
        payer,
        recipientOwner: owner,
        mint: stack.mint,
        amountUnits: parseUnits(order.amount),
        reference: task.withReference ? new PublicKey(order.reference) : undefined,
      });
    } catch (error) {
      chainErrors.push(`${order.reference}: ${errorMessage(error)}`);
      return;
    }
    const sentAt = performance.now();
    const record: PaidOrder = {
      reference: order.reference,
      withReference: task.withReference,
      reported: task.report,
      txId,
      sentAtWall: Date.now(),
    };
    paid.push(record);
    if (task.report) await call('POST', `/pay/${order.reference}/submit-tx`, { body: { txId }, expect: 202 });
    // ... and shows the payment once it is final.
    while (performance.now() - sentAt < POLL_LIMIT_MS) {
      if ((await info())?.status === 'PAID') {
        record.seenPaidMs = performance.now() - sentAt;
        break;
      }
      await sleep(POLL_MS);
    }
  };

  progress(
    `workload: ${tasks.length} orders through the balancer, ${SIZES.concurrency} at a time; ` +
      `instance ${KILLED} is killed at ${KILL_AT * 100}% and started again ${seconds(RESTART_AFTER_MS)} later`,
  );
  timeline.start = performance.now();
  await Promise.all(
    Array.from({ length: SIZES.concurrency }, async () => {
      while (next < tasks.length) {
        const task = tasks[next++];
        if (task) await runTask(task);
        afterTask();
      }
    }),
  );
  timeline.workloadDoneAt = performance.now();
  await chaos;
  if (timeline.chaosError)
    throw new Error(`killing and restarting instance ${KILLED}: ${timeline.chaosError}`);
  return { paid, expiring, created, chainErrors };
}

// ---------------------------------------------------------------------------------------------
// Convergence and the findings

type EventRow = { id: string; type: string; order_id: string; created_at: Date; body: string };

const merchantEvents = (stack: Stack) =>
  select<EventRow>(
    stack,
    `SELECT id, type, order_id::text, created_at, body FROM events WHERE merchant_id = :merchantId`,
    { merchantId: stack.merchantId },
  );

/** Rows of a query on the run's database. */
function select<T extends object>(
  stack: Pick<Stack, 'db'> | Database,
  sql: string,
  replacements: Record<string, unknown> = {},
): Promise<T[]> {
  const db = 'sequelize' in stack ? stack : stack.db;
  return db.sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements });
}

async function converged(stack: Stack, paid: PaidOrder[], expiring: string[]): Promise<boolean> {
  const [counts] = await select<{ paid: number; expired: number; undelivered: number }>(
    stack,
    `SELECT
       (SELECT count(*)::int FROM orders WHERE reference IN (:paid) AND status = 'PAID') AS paid,
       (SELECT count(*)::int FROM orders WHERE reference IN (:expiring) AND status = 'EXPIRED') AS expired,
       (SELECT count(*)::int FROM event_deliveries d JOIN events e ON e.id = d.event_id
         WHERE e.merchant_id = :merchantId AND d.status <> 'DELIVERED') AS undelivered`,
    {
      paid: paid.length ? paid.map((p) => p.reference) : [''],
      expiring: expiring.length ? expiring : [''],
      merchantId: stack.merchantId,
    },
  );
  if (!counts || counts.paid < paid.length || counts.expired < expiring.length || counts.undelivered > 0)
    return false;
  const received = new Set(stack.receiver.received.map((r) => r.json.id));
  return (await merchantEvents(stack)).every((e) => received.has(e.id));
}

type OrderFacts = {
  reference: string;
  status: string;
  amount_units: string;
  amount_received_units: string;
  verified_audits: number;
  verified_claims: number;
  expired_audits: number;
  repeated_status_changes: number;
  created_events: number;
  paid_events: number;
  expired_events: number;
};

type Line = { label: string; value: string; ok?: boolean };

/** Warnings and errors the instances logged (JSON lines, level >= 40), by message. */
function instanceLogSummary(stack: Stack): { total: number; byMessage: Map<string, number> } {
  const byMessage = new Map<string, number>();
  let total = 0;
  for (let i = 1; i <= INSTANCES; i++) {
    let text = '';
    try {
      text = fs.readFileSync(path.join(stack.dir, `instance-${i}.log`), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let message: string;
      try {
        const entry = JSON.parse(line) as {
          level?: number;
          msg?: string;
          err?: { message?: string } | string;
        };
        if ((entry.level ?? 0) < 40) continue;
        const err = typeof entry.err === 'string' ? entry.err : entry.err?.message;
        message = `${entry.level === 40 ? 'warn' : 'error'}: ${entry.msg ?? ''}${err ? ` (${err.slice(0, 120)})` : ''}`;
      } catch {
        message = `output: ${line.slice(0, 140)}`;
      }
      total++;
      const key = `instance ${i} ${message}`;
      byMessage.set(key, (byMessage.get(key) ?? 0) + 1);
    }
  }
  return { total, byMessage };
}

/**
 * HAProxy's log ("<level>message" lines; its stderr repeats some as "[WARNING] ..."): with
 * log-separate-errors and the "notice" level, requests that were not plain sailing (retried,
 * redispatched, 5xx, aborted), and server state changes.
 */
function haproxyLogSummary(file: string) {
  const lines = tail(file, 100_000)
    .split('\n')
    .filter((l) => /^<\d+>/.test(l))
    .map((l) => l.replace(/^<\d+>/, ''));
  // ... "GET /x HTTP/1.1" is preceded by: status bytes cookie cookie flags act/fe/be/srv/retries
  const request = / (\d{3}) \d+ \S+ \S+ (\S{4}) \d+\/\d+\/\d+\/\d+\/(\+?)(\d+) /;
  const requests = lines.flatMap((l) => {
    const m = request.exec(l);
    return m
      ? [{ status: m[1] ?? '', flags: m[2] ?? '', redispatched: m[3] === '+', retries: Number(m[4]) }]
      : [];
  });
  const statuses = new Map<string, number>();
  for (const r of requests) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  return {
    requests,
    answers: [...statuses].map(([status, n]) => `${status} ×${n}`).join(', '),
    retried: requests.filter((r) => r.retries > 0).length,
    redispatched: requests.filter((r) => r.redispatched).length,
    other: lines.filter((l) => !request.test(l)),
  };
}

async function report(
  stack: Stack,
  client: Client,
  timeline: Timeline,
  work: Awaited<ReturnType<typeof runWorkload>>,
  convergedInTime: boolean,
): Promise<number> {
  const { paid, expiring } = work;
  const since = (t: number | undefined) => (t === undefined ? '-' : `T+${seconds(t - timeline.start)}`);
  const lines: { section: string; rows: Line[] }[] = [];
  const violations: string[] = [];
  const check = (label: string, value: string, ok: boolean) => {
    if (!ok) violations.push(`${label}: ${value}`);
    return { label, value, ok };
  };

  // Requests
  const s = client.stats;
  const reasons = [...s.retryReasons].map(([reason, n]) => `${reason} ×${n}`).join(', ') || 'none';
  const servers = await readHaproxyStats(stack.statsUrl).catch(() => [] as ServerStat[]);
  const sum = (f: (x: ServerStat) => number) => servers.reduce((a, x) => a + f(x), 0);
  lines.push({
    section: 'Requests through the balancer',
    rows: [
      { label: 'calls (attempts, client retries included)', value: `${s.calls} (${s.attempts})` },
      { label: 'calls retried by the client', value: `${s.retriedCalls} (${reasons})` },
      check(
        'failed beyond client retries',
        String(s.failedBeyondRetries.length),
        s.failedBeyondRetries.length === 0,
      ),
      check('unexpected answers', String(s.unexpected.length), s.unexpected.length === 0),
      {
        label: 'HAProxy retries / redispatches',
        value: `${sum((x) => x.retries)} / ${sum((x) => x.redispatches)} (${servers
          .map(
            (x) =>
              `${x.name}: ${x.sessions} requests, ${x.retries} retried, ${x.redispatches} redispatched away, ` +
              `${x.http5xx} 5xx, down ${x.downs}×, now ${x.status}`,
          )
          .join('; ')})`,
      },
    ],
  });

  // Events
  const events = await merchantEvents(stack);
  const committed = new Map(events.map((e) => [e.id, e]));
  const deliveries = new Map<string, ReceivedWebhook[]>();
  for (const hook of stack.receiver.received) {
    const list = deliveries.get(hook.json.id) ?? [];
    list.push(hook);
    deliveries.set(hook.json.id, list);
  }
  let once = 0;
  let moreThanOnce = 0;
  let extraCopies = 0;
  /** The longest time between the first and the last copy of one event. */
  let copyLagMs = 0;
  let never = 0;
  let differing = 0;
  const latencies: number[] = [];
  for (const event of events) {
    const got = deliveries.get(event.id) ?? [];
    if (got.length === 0) never++;
    else if (got.length === 1) once++;
    else {
      moreThanOnce++;
      extraCopies += got.length - 1;
      const times = got.map((hook) => hook.at);
      copyLagMs = Math.max(copyLagMs, Math.max(...times) - Math.min(...times));
    }
    if (got.some((hook) => hook.body !== event.body)) differing++;
    const first = got.reduce((a, hook) => Math.min(a, hook.at), Number.POSITIVE_INFINITY);
    if (Number.isFinite(first)) latencies.push(first - new Date(event.created_at).getTime());
  }
  const unknown = [...deliveries.keys()].filter((id) => !committed.has(id)).length;
  const byType = new Map<string, number>();
  for (const e of events) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
  const ms = (n: number) => (n >= 1000 ? seconds(n) : `${Math.round(n)} ms`);
  lines.push({
    section: 'Events and webhooks',
    rows: [
      {
        label: 'committed (rows in events)',
        value: `${events.length} (${[...byType].map(([t, n]) => `${t} ${n}`).join(', ')})`,
      },
      { label: 'delivered exactly once', value: String(once) },
      {
        label: 'delivered more than once',
        value: moreThanOnce
          ? `${moreThanOnce} (${extraCopies} extra ${extraCopies === 1 ? 'copy' : 'copies'}, at most ` +
            `${seconds(copyLagMs)} after the first; at-least-once, acceptable)`
          : '0',
      },
      check('never delivered', String(never), never === 0),
      check('received but never committed', String(unknown), unknown === 0),
      check('received with a body other than the committed one', String(differing), differing === 0),
      {
        label: 'latency, event createdAt -> received',
        value: latencies.length
          ? `p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, max ${ms(Math.max(...latencies))}`
          : '-',
      },
      {
        label: 'first delivered after more than 5 s',
        value:
          `${latencies.filter((l) => l > 5_000).length} (deliveries the killed instance held, taken over ` +
          `when their lease ran out: send timeout 10 s + WEBHOOK_LEASE_GRACE_MS 5 s)`,
      },
    ],
  });

  // Jobs, once per slot
  const facts = await select<OrderFacts>(
    stack,
    `SELECT o.reference, o.status, o.amount_units::text, o.amount_received_units::text,
       (SELECT count(*)::int FROM audit_entries a WHERE a.order_id = o.id AND a.type = 'payment.verified') AS verified_audits,
       (SELECT count(*)::int FROM payment_claims c WHERE c.order_id = o.id AND c.status = 'VERIFIED') AS verified_claims,
       (SELECT count(*)::int FROM audit_entries a
         WHERE a.order_id = o.id AND a.type = 'status.changed' AND a.data->>'to' = 'EXPIRED') AS expired_audits,
       (SELECT count(*)::int FROM (SELECT 1 FROM audit_entries a WHERE a.order_id = o.id AND a.type = 'status.changed'
         GROUP BY a.data->>'to' HAVING count(*) > 1) r) AS repeated_status_changes,
       (SELECT count(*)::int FROM events e WHERE e.order_id = o.id AND e.type = 'order.created') AS created_events,
       (SELECT count(*)::int FROM events e WHERE e.order_id = o.id AND e.type = 'order.paid') AS paid_events,
       (SELECT count(*)::int FROM events e WHERE e.order_id = o.id AND e.type = 'order.expired') AS expired_events
     FROM orders o WHERE o.merchant_id = :merchantId`,
    { merchantId: stack.merchantId },
  );
  const byRef = new Map(facts.map((f) => [f.reference, f]));
  const paidFacts = paid.map((p) => byRef.get(p.reference));
  const expFacts = expiring.map((r) => byRef.get(r));
  const all = <T>(list: (T | undefined)[], ok: (x: T) => boolean) => list.filter((x) => x && ok(x)).length;
  const fraction = (label: string, n: number, of: number) => check(label, `${n}/${of}`, n === of);
  const keys = SIZES.paid + SIZES.expiring;
  const [idem] = await select<{ n: number }>(
    stack,
    'SELECT count(*)::int AS n FROM idempotency_keys WHERE merchant_id = :merchantId',
    { merchantId: stack.merchantId },
  );
  const kinds = {
    refReported: paid.filter((p) => p.withReference && p.reported).length,
    amountReported: paid.filter((p) => !p.withReference && p.reported).length,
    refScanned: paid.filter((p) => p.withReference && !p.reported).length,
    amountScanned: paid.filter((p) => !p.withReference && !p.reported).length,
  };
  lines.push({
    section: 'Background jobs: once per slot',
    rows: [
      check(
        'orders in the database for the Idempotency-Keys sent',
        `${facts.length} for ${keys} keys (${idem?.n ?? 0} keys stored)`,
        facts.length === keys && work.created === keys,
      ),
      fraction(
        'order.created once per order',
        all(facts, (f) => f.created_events === 1),
        facts.length,
      ),
      {
        label: 'paid on chain',
        value:
          `${paid.length}: reference + submit-tx ${kinds.refReported}, amount only + submit-tx ${kinds.amountReported}, ` +
          `reference, found by the scanner ${kinds.refScanned}, amount only, found by the scanner ${kinds.amountScanned}`,
      },
      fraction(
        'paid orders PAID',
        all(paidFacts, (f) => f.status === 'PAID'),
        SIZES.paid,
      ),
      fraction(
        '... exactly one payment.verified audit entry',
        all(paidFacts, (f) => f.verified_audits === 1),
        SIZES.paid,
      ),
      fraction(
        '... exactly one VERIFIED claim, credited once',
        all(paidFacts, (f) => f.verified_claims === 1 && f.amount_received_units === f.amount_units),
        SIZES.paid,
      ),
      fraction(
        '... exactly one order.paid event',
        all(paidFacts, (f) => f.paid_events === 1),
        SIZES.paid,
      ),
      fraction(
        'expiring orders EXPIRED',
        all(expFacts, (f) => f.status === 'EXPIRED'),
        SIZES.expiring,
      ),
      fraction(
        '... exactly one status.changed to EXPIRED',
        all(expFacts, (f) => f.expired_audits === 1),
        SIZES.expiring,
      ),
      fraction(
        '... exactly one order.expired event',
        all(expFacts, (f) => f.expired_events === 1),
        SIZES.expiring,
      ),
      check(
        'orders with a status change applied twice',
        String(all(facts, (f) => f.repeated_status_changes > 0)),
        all(facts, (f) => f.repeated_status_changes > 0) === 0,
      ),
    ],
  });

  // The run
  const logs = instanceLogSummary(stack);
  const haproxyLog = haproxyLogSummary(stack.haproxy.logFile);
  const seen = paid.flatMap((p) => (p.seenPaidMs === undefined ? [] : [p.seenPaidMs]));
  // Payment sent -> the order PAID, by the time of its audit entry (same machine, same clock).
  const paidAt = new Map(
    (
      await select<{ reference: string; at: Date }>(
        stack,
        `SELECT o.reference, a.created_at AS at FROM audit_entries a JOIN orders o ON o.id = a.order_id
          WHERE o.merchant_id = :merchantId AND a.type = 'status.changed' AND a.data->>'to' = 'PAID'`,
        { merchantId: stack.merchantId },
      )
    ).map((r) => [r.reference, new Date(r.at).getTime()]),
  );
  const toPaid = paid.flatMap((p) => {
    const at = paidAt.get(p.reference);
    return at === undefined ? [] : [{ p, ms: at - p.sentAtWall }];
  });
  const slow = toPaid.filter((x) => x.ms > 5_000);
  const slowKinds = new Map<string, number>();
  for (const { p } of slow) slowKinds.set(kindOf(p), (slowKinds.get(kindOf(p)) ?? 0) + 1);
  const toPaidMs = toPaid.map((x) => x.ms);
  lines.push({
    section: 'The run',
    rows: [
      {
        label: `instance ${KILLED} SIGKILLed`,
        value: `${since(timeline.killedAt)} (${timeline.killedAfter ?? 'never'}, serving ${timeline.servingAtKill ?? 0} request(s) then)`,
      },
      {
        label: `instance ${KILLED} started again / back in rotation`,
        value: `${since(timeline.restartedAt)} / ${since(timeline.backInRotationAt)}`,
      },
      { label: 'workload done', value: since(timeline.workloadDoneAt) },
      {
        label: 'payment sent -> checkout page shows PAID',
        value: seen.length
          ? `${seen.length}/${paid.length} within ${seconds(POLL_LIMIT_MS)}: p50 ${ms(percentile(seen, 50))}, ` +
            `p95 ${ms(percentile(seen, 95))}, max ${ms(Math.max(...seen))}`
          : `none within ${seconds(POLL_LIMIT_MS)}`,
      },
      {
        label: 'payment sent -> order PAID (its audit entry)',
        value: toPaidMs.length
          ? `p50 ${ms(percentile(toPaidMs, 50))}, p95 ${ms(percentile(toPaidMs, 95))}, max ${ms(Math.max(...toPaidMs))}`
          : '-',
      },
      {
        label: 'PAID more than 5 s after the payment',
        value: `${slow.length}${slow.length ? ` (${[...slowKinds].map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`,
      },
      check(
        'every order settled and every event delivered',
        convergedInTime
          ? `${since(timeline.convergedAt)} (${seconds((timeline.convergedAt ?? 0) - (timeline.workloadDoneAt ?? 0))} after the workload)`
          : `not within ${seconds(CONVERGE_TIMEOUT_MS)}`,
        convergedInTime,
      ),
      check(
        'payments the local chain refused',
        String(work.chainErrors.length),
        work.chainErrors.length === 0,
      ),
      { label: 'warnings and errors logged by the instances', value: String(logs.total) },
      {
        label: 'requests HAProxy logged as not plain sailing',
        value: haproxyLog.requests.length
          ? `${haproxyLog.requests.length} (answers ${haproxyLog.answers}; retried ${haproxyLog.retried}, ` +
            `of them on another instance ${haproxyLog.redispatched})`
          : '0',
      },
    ],
  });

  // Print
  const width = Math.max(...lines.flatMap((l) => l.rows.map((r) => r.label.length)));
  const cpus = os.cpus();
  console.log(
    `\nstablepay scale check: ${INSTANCES} instances (JOBS=all) behind HAProxy ${stack.haproxyVersion}, ` +
      `PostgreSQL ${stack.postgresVersion}, local Solana chain`,
  );
  console.log(
    `node ${process.version} · ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ''} · load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} · T = workload start`,
  );
  for (const { section, rows } of lines) {
    console.log(`\n${section}`);
    for (const row of rows)
      console.log(
        `  ${row.ok === false ? '✗' : row.ok ? '✓' : ' '} ${row.label.padEnd(width)}  ${row.value}`,
      );
  }
  const details = [
    ...s.failedBeyondRetries.map((f) => `failed beyond retries: ${f.call}: ${f.reason}`),
    ...s.unexpected.map((f) => `unexpected answer: ${f.call}: ${f.reason}`),
    ...work.chainErrors.map((e) => `chain: ${e}`),
    ...[...logs.byMessage].map(([m, n]) => `${m} ×${n}`),
    ...haproxyLog.other.map((l) => `haproxy: ${l.slice(0, 220)}`),
  ];
  if (details.length) {
    console.log('\nDetails');
    for (const d of details.slice(0, 40)) console.log(`  - ${d}`);
    if (details.length > 40) console.log(`  - … ${details.length - 40} more`);
  }
  console.log(
    violations.length === 0
      ? '\nOK: no request failed beyond the client retries, every event was delivered, every job ran once per slot.'
      : `\nFAILED: ${violations.length} violation(s): ${violations.join('; ')}`,
  );
  return violations.length === 0 ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  if (!haproxyVersion()) {
    console.error(
      'scale:check needs HAProxy, and `haproxy` is not on PATH.\n' +
        'Install it from the distribution (Debian/Ubuntu: apt-get install haproxy), then run again.',
    );
    return 2;
  }
  const serverUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  try {
    await adminQuery(serverUrl, 'SELECT 1');
  } catch (error) {
    console.error(
      `scale:check needs a PostgreSQL server to create its database on: ${new URL(serverUrl).host} ` +
        `answered: ${errorMessage(error)}\nSet DATABASE_URL (default ${DEFAULT_DATABASE_URL}).`,
    );
    return 2;
  }

  const cleanup = createCleanup(CLEANUP_STEP_TIMEOUT_MS);
  const finish = finisher(cleanup);
  const run = stopOnSignals(finish, progress);
  // Last resort (an exception past everything, process.exit elsewhere): no child outlives the run.
  process.on('exit', () => childGroups.forEach((pgid) => signalGroup(pgid, 'SIGKILL')));
  const state: RunState = { keepLogs: false };
  const watchdog = setTimeout(() => {
    progress(`the run took longer than ${seconds(RUN_TIMEOUT_MS)}: stopping`);
    run.interrupted = true;
    void finish(1).then((c) => process.exit(c));
  }, RUN_TIMEOUT_MS);

  try {
    const stack = await setUp(cleanup, serverUrl, state);
    const client = createClient(stack.lbUrl);
    const timeline: Timeline = { start: performance.now() };
    const work = await runWorkload(stack, client, timeline);

    progress(
      `waiting (at most ${seconds(CONVERGE_TIMEOUT_MS)}) for ${work.paid.length} orders PAID, ` +
        `${work.expiring.length} EXPIRED and every event delivered`,
    );
    let convergedInTime = true;
    try {
      await waitFor('convergence', CONVERGE_TIMEOUT_MS, () => converged(stack, work.paid, work.expiring));
      timeline.convergedAt = performance.now();
      await sleep(SETTLE_MS); // late duplicates of deliveries still in flight
    } catch {
      convergedInTime = false;
    }
    const code = await report(stack, client, timeline, work, convergedInTime);
    state.keepLogs = code !== 0;
    if (state.keepLogs) console.log(`\nLogs of the instances and haproxy: kept in ${stack.dir}`);
    return await finish(code);
  } catch (error) {
    if (!run.interrupted) {
      console.error('scale:check failed:', error instanceof Error ? (error.stack ?? error.message) : error);
      state.keepLogs = state.dir !== undefined;
      if (state.dir) console.error(`Logs of the instances and haproxy: kept in ${state.dir}`);
    }
    return finish(1);
  } finally {
    clearTimeout(watchdog);
  }
}

main().then((code) => process.exit(code));
