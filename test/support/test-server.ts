import { randomBytes, randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { getAddress } from 'viem';
import { afterAll, beforeAll, inject } from 'vitest';
import { loadConfig } from '../../server/config';
import type { Deps } from '../../server/deps';
import { startServer } from '../../server/main';
import argon2 from 'argon2';
import { createDatabase } from './create-database';
import { fileScope } from './file-scope';

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/**
 * A database for this test file alone (made at its first server; fileScope is emptied before each
 * file). Files run at the same time and their servers run background jobs: sharing one database,
 * one file's workers would deliver and settle another file's events and payments with other settings.
 */
export function fileDatabaseUrl(): Promise<string> {
  fileScope.database ??= createTestDatabase();
  return fileScope.database;
}

/** A new, empty database on the run's server (dropped with the run's others at the end). */
export async function createTestDatabase(): Promise<string> {
  const name = `${inject('databasePrefix')}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  return createDatabase(inject('databaseServerUrl'), name);
}

/**
 * The secrets of this file's servers, made at random for it (the code has none to fall back on):
 * every server a file starts on its database signs and seals alike, as instances must.
 */
export const TEST_SECRETS = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

/** The real server on a random port, on this run's database, with test-friendly settings. */
export async function startTestServer(env: Record<string, string> = {}, overrides: Partial<Deps> = {}) {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: await fileDatabaseUrl(),
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'http://pay.example.test',
    FX_PROVIDER: 'static',
    FX_STATIC_RATES: 'BRL:5.25,EUR:0.92',
    SOLANA_RPC_URL: 'http://127.0.0.1:9',
    RPC_TIMEOUT_MS: '2000',
    // Limits out of the way unless a test is about them (it sets its own).
    API_RATE_LIMIT_PER_SECOND: '100000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
    DB_POOL_MAX: '5',
    // A pool of 5 on a machine shared by several suites (load 20 on 2 cores is seen): longer waits
    // for a connection and a statement than the defaults, unless a test is about them
    // (database-partition.test.ts runs on the defaults).
    DB_ACQUIRE_TIMEOUT_MS: '3000',
    DB_STATEMENT_TIMEOUT_MS: '5000',
    ...TEST_SECRETS,
    // The tests' webhook receivers listen on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  });
  const running = await startServer(config, overrides);
  return { ...running, api: apiClient(running.url), config };
}

/**
 * One server for the file: started before its tests, stopped after them. The answer stands for the
 * server from the first test on (it forwards to the one `beforeAll` started).
 */
export function useTestServer(env: Record<string, string> = {}): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(env);
  });
  afterAll(() => server?.stop());
  return new Proxy({} as TestServer, {
    get(_, key) {
      if (!server) throw new Error('the test server is used before beforeAll started it');
      return Reflect.get(server, key);
    },
  });
}

export type ApiResponse<T = unknown> = { status: number; headers: Headers; body: T; text: string };

export function apiClient(baseUrl: string) {
  return async function api<T = any>( // eslint-disable-line @typescript-eslint/no-explicit-any
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    } else if (opts.rawBody !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
}

export const TEST_PASSWORD = 'correct horse battery staple';

let cheapHash: Promise<string> | undefined;
/**
 * TEST_PASSWORD's argon2id hash at the smallest cost, made once per file. A login verifies with
 * the cost written in the hash, so signing in the tests' hundreds of merchants and members costs
 * a millisecond each instead of the production cost (64 MiB, half a second of both cores here).
 * The production hash has its own tests (the CLI's createMerchant, password changes, invitations).
 */
export function testPasswordHash(): Promise<string> {
  cheapHash ??= argon2.hash(TEST_PASSWORD, {
    type: argon2.argon2id,
    memoryCost: 1024,
    timeCost: 1,
    parallelism: 1,
  });
  return cheapHash;
}
/** Valid addresses for input that needs one; a registered wallet has an address of its own (below). */
export const SOLANA_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
export const EVM_WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';

/** A fresh receiving address: an address has one owner on an instance, so each merchant gets its own. */
export const newWalletAddress = (network: string): string =>
  network === 'SOLANA'
    ? Keypair.generate().publicKey.toBase58()
    : getAddress(`0x${randomBytes(20).toString('hex')}`);

/** A new API key of the signed-in merchant (`token`) with `scopes`, named after them; its secret. */
export async function newApiKey(
  api: ReturnType<typeof apiClient>,
  token: string,
  scopes: string[],
): Promise<string> {
  const res = await api<{ secret: string }>('POST', '/users/me/api-keys', {
    token,
    body: { name: scopes.join(' '), scopes },
  });
  if (res.status !== 201) throw new Error(`API key failed: ${res.text}`);
  return res.body.secret;
}

/**
 * A new merchant of its own (tests never share tenants), its owner made in the database as
 * createMerchant makes it (the CLI's tests cover that path), logged in, optionally with wallets.
 */
export async function newMerchant(
  server: TestServer,
  opts: { name?: string; wallets?: ('SOLANA' | 'POLYGON' | 'ETHEREUM')[] } = {},
) {
  const email = `m-${randomUUID()}@example.com`;
  const merchant = await server.deps.db.models.Merchant.create({ email, fullName: opts.name ?? 'Test Shop' });
  await server.deps.db.models.Member.create({
    id: merchant.id,
    merchantId: merchant.id,
    email,
    name: opts.name ?? 'Test Shop',
    passwordHash: await testPasswordHash(),
    role: 'owner',
  });
  const login = await server.api<{ token: string }>('POST', '/auth/login', {
    body: { email, password: TEST_PASSWORD },
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.text}`);
  const token = login.body.token;
  const wallets: Record<string, string> = {};
  const addresses: Record<string, string> = {};
  for (const network of opts.wallets ?? []) {
    const res = await server.api('POST', '/users/me/wallets', {
      token,
      body: { network, public_address: newWalletAddress(network) },
    });
    if (res.status !== 201) throw new Error(`wallet failed: ${res.text}`);
    wallets[network] = res.body.wallet_id;
    addresses[network] = res.body.public_address;
  }
  return { id: merchant.id, email, token, wallets, addresses };
}

/** Asks for an order of 1 USDT on Solana, with `extra` fields: the answer is the caller's to check. */
export function requestSolanaOrder(server: TestServer, token: string, extra: Record<string, unknown> = {}) {
  return server.api('POST', '/orders', {
    token,
    body: { network: 'SOLANA', token: 'USDT', amount: '1', ...extra },
  });
}

/** Every error leaves with the one body. */
export function expectErrorBody(res: ApiResponse, status: number, code: string) {
  const body = res.body as { error?: { code?: string; message?: string } };
  if (res.status !== status || body?.error?.code !== code || typeof body.error.message !== 'string')
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
}

/** A 400 VALIDATION_ERROR whose details name `path`. */
export function expectFieldError(res: ApiResponse, path: string) {
  expectErrorBody(res, 400, 'VALIDATION_ERROR');
  const details = (res.body as { error: { details?: { path: string }[] } }).error.details ?? [];
  if (!details.some((d) => d.path === path))
    throw new Error(`expected a validation error at ${path}, got ${res.text}`);
}
