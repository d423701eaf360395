import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, startTestServer, TEST_PASSWORD, type TestServer } from '../support/test-server';

/**
 * The SDK as an integrator gets it: packed with npm pack from a tree without a build (its prepack
 * script builds it with tsup), installed from the tarball into an empty project, then used through `import`, through `require`, and from a strict
 * TypeScript file type-checked against the published .d.ts.
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const SDK = path.join(ROOT, 'sdk');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

let server: TestServer;
let merchant: Awaited<ReturnType<typeof newMerchant>>;
let work: string;
let project: string;
const timings: Record<string, number> = {};

async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    timings[name] = Math.round(performance.now() - started);
  }
}

/** npm without the caller's npm_* settings (vitest may run under `npm test`). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.toLowerCase().startsWith('npm_') && k !== 'NODE_OPTIONS') env[k] = v;
  return { ...env, NODE_ENV: 'development', npm_config_update_notifier: 'false' };
}

async function node(file: string, args: string[] = []) {
  const { stdout } = await run(process.execPath, [file, ...args], { cwd: project, env: npmEnv() });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

beforeAll(async () => {
  server = await startTestServer({ API_RATE_LIMIT_PER_MINUTE: '100000', LOGIN_RATE_LIMIT_MAX: '1000' });
  merchant = await newMerchant(server, { wallets: ['SOLANA'] });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-sdk-pack-'));
  project = path.join(work, 'consumer');
  fs.mkdirSync(project);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  console.log(`[sdk packaging] timings (ms): ${JSON.stringify(timings)}`);
});

describe('npm package @stablepay/sdk', () => {
  it('packs with its build (prepack), installs from the tarball, and works through import, require and strict types', async () => {
    // 1. Pack a tree without a build, as a fresh clone is: the prepack script builds (ESM + CJS + .d.ts).
    fs.rmSync(path.join(SDK, 'dist'), { recursive: true, force: true });
    const packed = await timed('pack+build', () =>
      run('npm', ['pack', '--json', '--pack-destination', work], { cwd: SDK, env: npmEnv() }),
    );
    // tsup's log shares stdout with npm's JSON, which is the last thing printed.
    const json = packed.stdout.slice(packed.stdout.search(/^\[/m));
    const [info] = JSON.parse(json) as {
      filename: string;
      size: number;
      unpackedSize: number;
      files: { path: string }[];
    }[];
    const files = info!.files.map((f) => f.path).sort();
    for (const file of [
      'package.json',
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
      'dist/payer.js',
      'dist/payer.cjs',
      'dist/payer.d.ts',
      'dist/payer.d.cts',
      'dist/refunds.js',
      'dist/refunds.cjs',
      'dist/refunds.d.ts',
      'dist/refunds.d.cts',
    ])
      expect(files, file).toContain(file);
    expect(files.filter((f) => !f.startsWith('dist/') && f !== 'package.json' && f !== 'README.md')).toEqual(
      [],
    );
    console.log(
      `[sdk packaging] tarball ${info!.filename}: ${info!.size} bytes packed, ${info!.unpackedSize} unpacked, ${files.length} files`,
    );

    // 2. The build: sizes, the contract bundled in but not its dependencies, no Node imports in the payer entry.
    const sizes = Object.fromEntries(
      ['index.js', 'index.cjs', 'payer.js', 'payer.cjs', 'index.d.ts'].map((f) => [
        f,
        fs.statSync(path.join(SDK, 'dist', f)).size,
      ]),
    );
    const chunk = fs.readdirSync(path.join(SDK, 'dist')).find((f) => /^chunk-.*\.js$/.test(f));
    if (chunk) sizes[chunk] = fs.statSync(path.join(SDK, 'dist', chunk)).size;
    console.log(`[sdk packaging] dist sizes (bytes): ${JSON.stringify(sizes)}`);
    const indexJs = fs.readFileSync(path.join(SDK, 'dist/index.js'), 'utf8');
    expect(indexJs).toContain('/users/me/orders');
    expect(indexJs).not.toMatch(/from ["']\.\.\/(\.\.\/)?contract/);
    expect(indexJs).toMatch(/from ["']@ts-rest\/core["']/);
    const payerJs = fs.readFileSync(path.join(SDK, 'dist/payer.js'), 'utf8');
    expect(payerJs).not.toMatch(/node:|from ["']zod["']|@ts-rest/);
    expect(payerJs).toContain('wallet_switchEthereumChain');
    // The server-side refund signer loads its chain libraries only when used: no static import.
    const refundsJs = fs.readFileSync(path.join(SDK, 'dist/refunds.js'), 'utf8');
    expect(refundsJs).not.toMatch(/from ["'](viem|@solana\/web3\.js)["']/);
    expect(payerJs).not.toMatch(/viem/);
    const tarball = path.join(work, info!.filename);

    // 3. Install into an empty project, from the npm cache the root install filled.
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2),
    );
    const installArgs = ['install', tarball, '--no-audit', '--no-fund', '--no-package-lock'];
    await timed('install', async () => {
      try {
        await run('npm', [...installArgs, '--offline'], { cwd: project, env: npmEnv() });
        console.log('[sdk packaging] installed --offline, from the npm cache');
      } catch {
        // The cache may lack the registry metadata (a lockfile with resolved URLs fetches tarballs only).
        await run('npm', [...installArgs, '--prefer-offline'], { cwd: project, env: npmEnv() });
        console.log('[sdk packaging] installed --prefer-offline');
      }
    });
    const installed = JSON.parse(
      fs.readFileSync(path.join(project, 'node_modules/@stablepay/sdk/package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe('0.1.0');
    expect(fs.existsSync(path.join(project, 'node_modules/@ts-rest/core'))).toBe(true);
    expect(fs.existsSync(path.join(project, 'node_modules/zod'))).toBe(true);

    // 4. import (ESM) and require (CJS), against the running server.
    const args = [server.url, merchant.email, TEST_PASSWORD];
    fs.writeFileSync(path.join(project, 'esm.mjs'), consumerScript('esm'));
    fs.writeFileSync(path.join(project, 'cjs.cjs'), consumerScript('cjs'));
    for (const format of ['esm', 'cjs'] as const) {
      const out = await timed(format, () => node(format === 'esm' ? 'esm.mjs' : 'cjs.cjs', args));
      expect(out, format).toEqual({
        format,
        eventType: 'order.paid',
        eventReference: 'ref-1',
        rawBodyRejected: 'PAYLOAD_NOT_RAW',
        tamperedRejected: 'NO_MATCHING_SIGNATURE',
        loggedIn: true,
        orderStatus: 'PENDING',
        listed: true,
        authErrorTyped: true,
        notFoundTyped: true,
        payUrlKind: 'solana-transfer',
        sameErrorClassAcrossEntries: true,
        otherFormatErrorIsInstance: true,
        evmPayerExported: true,
      });
    }

    // 5. A strict TypeScript consumer, checked against the published types (ESM and CJS views).
    fs.writeFileSync(path.join(project, 'consumer.ts'), CONSUMER_TS);
    fs.writeFileSync(path.join(project, 'consumer-cjs.cts'), CONSUMER_CTS);
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            strict: true,
            noEmit: true,
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            lib: ['es2022', 'dom'],
            types: [],
            noUncheckedIndexedAccess: true,
            skipLibCheck: false,
          },
          files: ['consumer.ts', 'consumer-cjs.cts'],
        },
        null,
        2,
      ),
    );
    fs.writeFileSync(path.join(project, 'consumer-payer.ts'), CONSUMER_PAYER_TS);
    fs.writeFileSync(
      path.join(project, 'tsconfig.payer.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { skipLibCheck: true },
        files: ['consumer-payer.ts'],
      }),
    );
    const tsc = (config: string) =>
      run(process.execPath, [TSC, '-p', config], { cwd: project, env: npmEnv() }).then(
        () => '',
        (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
      );
    expect(await timed('tsc', () => tsc('tsconfig.json'))).toBe('');
    expect(await timed('tsc-payer', () => tsc('tsconfig.payer.json'))).toBe('');

    // ...and the checker does catch a misuse (the consumer above is not passing vacuously).
    fs.writeFileSync(
      path.join(project, 'consumer.ts'),
      CONSUMER_TS.replace('// @ts-expect-error amounts are strings\n', ''),
    );
    const broken = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    expect(broken).toMatch(/consumer\.ts\(\d+,\d+\): error TS2322/);
  }, 180_000);
});

function consumerScript(format: 'esm' | 'cjs'): string {
  const load =
    format === 'esm'
      ? `import { createClient, webhooks, StablepayError, AuthenticationError, NotFoundError } from '@stablepay/sdk';
import * as payer from '@stablepay/sdk/payer';
import { createRequire } from 'node:module';
const otherModule = createRequire(import.meta.url)('@stablepay/sdk');`
      : `const { createClient, webhooks, StablepayError, AuthenticationError, NotFoundError } = require('@stablepay/sdk');
const payer = require('@stablepay/sdk/payer');
const loadOther = () => import('@stablepay/sdk');`;
  return `${load}

async function main() {
  const [baseUrl, email, password] = process.argv.slice(2);
  const secret = 'whsec_consumer_test';
  const body = JSON.stringify({ id: 'evt_1', type: 'order.paid', createdAt: new Date().toISOString(), data: { order: { reference: 'ref-1' } } });
  const header = webhooks.generateTestHeader({ payload: body, secret });
  const event = webhooks.constructEvent({ payload: Buffer.from(body), header, secret });
  const reason = (fn) => { try { fn(); return null; } catch (e) { return e instanceof StablepayError ? e.reason : String(e); } };

  const client = createClient({ baseUrl });
  await client.auth.login({ email, password });
  const order = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '1.5' });
  const page = await client.orders.list({ per_page: 50 });
  const authError = await createClient({ baseUrl, token: 'bad' }).orders.list().catch((e) => e);
  const notFound = await payer.getPaymentInfo('11111111111111111111111111111111', { baseUrl }).catch((e) => e);
  const other = ${format === 'esm' ? 'otherModule' : 'await loadOther()'};
  const otherError = await other.createClient({ baseUrl, token: 'bad' }).orders.list().catch((e) => e);

  console.log(JSON.stringify({
    format: '${format}',
    eventType: event.type,
    eventReference: event.data.order.reference,
    rawBodyRejected: reason(() => webhooks.constructEvent({ payload: JSON.parse(body), header, secret })),
    tamperedRejected: reason(() => webhooks.constructEvent({ payload: body.replace('ref-1', 'ref-2'), header, secret })),
    loggedIn: typeof client.token === 'string',
    orderStatus: order.status,
    listed: page.items.some((o) => o.reference === order.reference),
    authErrorTyped: authError instanceof AuthenticationError && authError instanceof StablepayError && authError.status === 401,
    notFoundTyped: notFound instanceof NotFoundError && notFound instanceof payer.NotFoundError,
    payUrlKind: payer.parsePayUrl(order.payUrl).kind,
    sameErrorClassAcrossEntries: payer.StablepayError === StablepayError,
    otherFormatErrorIsInstance: other.StablepayError !== StablepayError && otherError instanceof AuthenticationError && otherError instanceof StablepayError,
    evmPayerExported: typeof payer.payWithEvmWallet === 'function' && typeof payer.createPayer({ baseUrl }).payWithEvmWallet === 'function' &&
      new payer.EvmRequestRejectedError('eth_sendTransaction', 'no') instanceof other.EvmPaymentError &&
      new payer.EvmChainNotAddedError(137, 'no') instanceof StablepayError,
  }));
}
main().catch((e) => { console.error(e); process.exit(1); });
`;
}

const CONSUMER_TS = `import { createClient, ConflictError, StablepayError, ValidationError, webhooks } from '@stablepay/sdk';
import type { CreateOrderParams, Network, Order, WebhookEvent } from '@stablepay/sdk';
import { parsePayUrl } from '@stablepay/sdk';

const client = createClient({ baseUrl: 'http://localhost:3000', token: 'jwt', maxRetries: 3 });

export async function run(): Promise<string[]> {
  const out: string[] = [];
  const params: CreateOrderParams = { network: 'SOLANA', token: 'USDT', amount: '1.5', metadata: { cart: 1 } };
  const order: Awaited<ReturnType<typeof client.orders.create>> = await client.orders.create(params, {
    idempotencyKey: 'order-1001',
  });
  out.push(order.amount.toUpperCase(), order.reference, order.status);
  const same: Order = order;
  const paidAt: string | null = same.paidAt;
  out.push(String(paidAt));

  // @ts-expect-error amounts are strings
  await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: 1.5 });
  // @ts-expect-error unknown network
  await client.orders.create({ network: 'BITCOIN', token: 'USDT', amount: '1' });
  // @ts-expect-error status is a union of literals
  const nope: 'NOPE' = order.status;
  out.push(nope);

  const cursorPage = await client.orders.list({ cursor: '', per_page: 50 });
  const next: string | null = cursorPage.nextCursor;
  const numbered = await client.orders.list({ page: 2 });
  const total: number = numbered.total;
  out.push(String(next), String(total));
  for await (const o of client.orders.listAll({ status: 'PAID', network: 'SOLANA' })) out.push(o.amountReceived);

  const audit = await client.orders.audit(order.reference);
  const actor: 'member' | 'api_key' | 'payer' | 'system' | 'merchant' | undefined = audit.items[0]?.actor;
  const deliveries = await client.orders.webhookDeliveries(order.reference);
  const status: number | null | undefined = deliveries.items[0]?.responseStatus;
  out.push(String(actor), String(status));

  const profile = await client.profile.update({ webhook_url: 'https://shop.example/hooks', phone: null });
  const secretSet: boolean = profile.webhook_secret_set;
  const { webhook_secret } = await client.profile.rotateWebhookSecret();
  const wallets = await client.wallets.list();
  const network: Network | undefined = wallets.items[0]?.network;
  const networks: Network[] = (await client.networks.list()).map((n) => n.network);
  out.push(networks.join(','));
  const removed: void = await client.wallets.remove('00000000-0000-0000-0000-000000000000');
  out.push(String(secretSet), webhook_secret, String(network), String(removed));

  try {
    await client.orders.get('x');
  } catch (error) {
    if (error instanceof ValidationError) {
      const code: 'VALIDATION_ERROR' = error.code;
      const path: string | undefined = error.details[0]?.path;
      out.push(code, String(path), String(error.status), String(error.requestId));
    } else if (error instanceof ConflictError) out.push(error.code);
    else if (error instanceof StablepayError) out.push(error.code);
  }

  const event: WebhookEvent = webhooks.constructEvent({ payload: '{}', header: 't=1,v1=00', secret: ['a', 'b'] });
  if (event.type === 'order.paid') out.push(event.data.order.amountReceived.toUpperCase());
  // @ts-expect-error not an event type
  if (event.type === 'order.refunded') out.push('never');

  const url = parsePayUrl(order.payUrl);
  if (url.kind === 'evm-transfer') out.push(url.amount.toUpperCase(), String(url.chainId));
  else if (url.kind === 'solana-transfer') out.push(String(url.amount), ...url.references);
  return out;
}
`;

/** The payer entry's types name @solana/web3.js (an optional peer, not installed here): skipLibCheck. */
const CONSUMER_PAYER_TS = `import {
  createPayer,
  EvmChainNotAddedError,
  EvmPaymentError,
  EvmRequestRejectedError,
  getPaymentInfo,
  NotFoundError,
  parsePayUrl,
  payWithEvmWallet,
  type Eip1193Provider,
  type PaymentInfo,
  type PayWithEvmWalletResult,
  type PayWithSolanaWalletResult,
} from '@stablepay/sdk/payer';

declare const ethereum: Eip1193Provider;

export async function payEvm(reference: string): Promise<string> {
  try {
    const r: PayWithEvmWalletResult = await payWithEvmWallet({
      baseUrl: 'https://pay.example.com',
      reference,
      provider: ethereum,
      timeoutMs: 0,
    });
    const hash: string = r.txId;
    const timedOut: boolean = r.timedOut;
    return \`\${hash} \${r.info.status} \${timedOut}\`;
  } catch (e) {
    if (e instanceof EvmRequestRejectedError) return e.method;
    if (e instanceof EvmChainNotAddedError) return String(e.chainId);
    if (e instanceof EvmPaymentError) return \`\${e.code} \${e.txId ?? ''} \${e.providerCode ?? ''}\`;
    throw e;
  }
}

export async function show(reference: string): Promise<string> {
  const info: PaymentInfo = await getPaymentInfo(reference, { baseUrl: 'https://pay.example.com' });
  const due: string = info.amountDue;
  // @ts-expect-error amounts are strings
  const n: number = info.amount;
  const payer = createPayer({ baseUrl: 'https://pay.example.com', maxRetries: 1 });
  const built = await payer.requestSolanaTransaction({ reference, account: 'So11111111111111111111111111111111111111112' });
  const tx: string = built.transaction;
  const describe = (r: PayWithSolanaWalletResult) => \`\${r.signature} \${r.info.status} \${r.timedOut}\`;
  try {
    await payer.getPaymentInfo('x');
  } catch (e) {
    if (e instanceof NotFoundError) return e.code;
  }
  const url = parsePayUrl(info.payUrl);
  return [due, String(n), tx, describe, url.kind].join();
}
`;

const CONSUMER_CTS = `import { createClient, StablepayError, webhooks } from '@stablepay/sdk';

export async function check(): Promise<string> {
  const client = createClient({ baseUrl: 'http://localhost:3000' });
  const login = await client.auth.login({ email: 'a@b.c', password: 'x' });
  if (!('token' in login)) throw new Error('two-factor: send a code with loginMfa()');
  const tokenType: 'Bearer' = login.tokenType;
  const header: string = webhooks.generateTestHeader({ payload: '{}', secret: 's' });
  const error = new StablepayError({ message: 'x', code: 'CONNECTION_ERROR' });
  // @ts-expect-error not a code
  const bad = new StablepayError({ message: 'x', code: 'NOPE' });
  return [tokenType, header, error.code, String(bad)].join();
}
`;
