/**
 * The request path against the stack's limit (npm run bench -- --only request-path): the service
 * and bare Express + pg baselines run as processes of their own on one PostgreSQL, driven by
 * autocannon from this process in the same run, at 1 and 32 connections. What is reported is each
 * route's throughput as a ratio to its baseline (absolute figures on a shared machine are noise).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../server/db/embedded-postgres';
import { percentile } from '../lib/percentile';
import { freePort } from '../../test/support/free-port';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const JWT_SECRET = 'request-path-bench-secret-of-at-least-32-chars';
const PASSWORD = 'bench-password-123';
const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

export type PathRow = {
  route: string;
  connections: number;
  /** Medians over the rounds. */
  rps: number;
  p50: number;
  p99: number;
  baseline: string;
  baselineRps: number;
  /** The median of the rounds' ratios (route ÷ baseline, measured back to back), and their range. */
  ratio: number;
  ratioRange: [number, number];
  errors: number;
};
export type PathReport = { rows: PathRow[]; notes: string[] };

type Cleanup = (what: string, fn: () => Promise<void>) => void;

async function waitReady(url: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`${url} did not become ready`);
}

function stopChild(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

type Load = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: () => string;
  connections: number;
  seconds: number;
};

type Measured = { rps: number; p50: number; p99: number; errors: number };

const median = (xs: number[]) => percentile(xs, 50);

async function load(l: Load): Promise<Measured> {
  const result = await autocannon({
    url: l.url,
    connections: l.connections,
    duration: l.seconds,
    pipelining: 1,
    requests: [
      {
        method: l.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...l.headers },
        ...(l.body ? { setupRequest: (req) => ({ ...req, body: l.body!() }) } : {}),
      } as autocannon.Request,
    ],
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

export async function benchRequestPath(
  cleanup: Cleanup,
  progress: (m: string) => void,
  opts: { seconds: number; depthRows: number; rounds: number },
): Promise<PathReport> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-path-'));
  fs.chmodSync(dataDir, 0o755);
  cleanup('request-path folder', async () =>
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 }),
  );
  progress('request path: starting PostgreSQL, the service and the bare baselines');
  const db = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  cleanup('request-path PostgreSQL', () => db.stop());

  const port = await freePort();
  const service = spawn(TSX, ['server/main.ts'], {
    cwd: ROOT,
    stdio: 'ignore', // request logs are written, as in production; to nowhere
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET,
      DATA_ENCRYPTION_KEY: 'a'.repeat(64),
      LOG_LEVEL: 'info',
      API_RATE_LIMIT_PER_SECOND: '1000000',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
      LOGIN_RATE_LIMIT_MAX: '1000',
      SOLANA_RPC_URL: 'http://127.0.0.1:9',
      POLYGON_RPC_URL: 'http://127.0.0.1:9',
      ETHEREUM_RPC_URL: 'http://127.0.0.1:9',
      FX_PROVIDER: 'static',
    },
  });
  cleanup('request-path service', () => stopChild(service));
  const base = `http://127.0.0.1:${port}`;
  await waitReady(`${base}/readyz`);

  const barePort = await freePort();
  const bare = fork(
    path.join(ROOT, 'scripts/bench/bare-servers.ts'),
    [String(barePort), db.url, JWT_SECRET],
    {
      execPath: TSX,
      stdio: 'ignore',
    },
  );
  cleanup('bare baselines', () => stopChild(bare));
  await new Promise<void>((resolve, reject) => {
    bare.once('message', () => resolve());
    bare.once('exit', (code) => reject(new Error(`bare servers exited (${code})`)));
  });
  const bareBase = `http://127.0.0.1:${barePort}`;

  // A merchant, its token and a wallet, through the service's own tools and API.
  const email = `path-${Date.now()}@stablepay.local`;
  const created = spawn(TSX, ['server/cli/merchant.ts', 'create', '--email', email, '--password', PASSWORD], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' },
  });
  await new Promise((resolve) => created.once('exit', resolve));
  const login = (await (
    await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    })
  ).json()) as { token: string };
  const auth = { authorization: `Bearer ${login.token}` };
  const merchantId = String(jwt.decode(login.token, { json: true })?.sub);
  await fetch(`${base}/users/me/wallets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify({ network: 'SOLANA', public_address: WALLET }),
  });
  let cents = 0;
  // Varied amounts as exact decimal strings (float division would print 1.1500000000000001).
  const amount = () => {
    const c = 100 + (cents++ % 900_000);
    return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
  };
  const orderBody = () => JSON.stringify({ network: 'SOLANA', token: 'USDT', amount: amount() });
  const first = (await (
    await fetch(`${base}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: orderBody(),
    })
  ).json()) as { reference: string };

  const bareToken = jwt.sign({ sub: merchantId }, JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' });
  const baselines = {
    insert: (connections: number) =>
      load({
        url: `${bareBase}/orders`,
        method: 'POST',
        body: () => JSON.stringify({ merchantId, network: 'SOLANA', token: 'USDT', amount: amount() }),
        connections,
        seconds: opts.seconds,
      }),
    read: (connections: number) =>
      load({
        url: `${bareBase}/me`,
        headers: { authorization: `Bearer ${bareToken}` },
        connections,
        seconds: opts.seconds,
      }),
  };
  const routes: {
    route: string;
    baseline: 'insert' | 'read';
    run: (c: number) => ReturnType<typeof load>;
  }[] = [
    {
      route: 'POST /orders',
      baseline: 'insert',
      run: (connections) =>
        load({
          url: `${base}/orders`,
          method: 'POST',
          headers: auth,
          body: orderBody,
          connections,
          seconds: opts.seconds,
        }),
    },
    {
      route: 'GET /users/me',
      baseline: 'read',
      run: (connections) =>
        load({ url: `${base}/users/me`, headers: auth, connections, seconds: opts.seconds }),
    },
    {
      route: 'GET /orders/{reference}',
      baseline: 'read',
      run: (connections) =>
        load({ url: `${base}/orders/${first.reference}`, headers: auth, connections, seconds: opts.seconds }),
    },
    {
      route: 'GET /users/me/orders (20)',
      baseline: 'read',
      run: (connections) =>
        load({
          url: `${base}/users/me/orders?per_page=20`,
          headers: auth,
          connections,
          seconds: opts.seconds,
        }),
    },
  ];

  const report: PathReport = { rows: [], notes: [] };
  // Warm both up (JIT, connection pools, plans) before anything is measured.
  await baselines.insert(8);
  await routes[0]!.run(8);
  // Statistics of the tables the warm-up filled, as autovacuum takes them within a minute of so
  // many new rows: without them the planner reads a fresh orders table as nearly empty.
  const analyze = new pg.Client({ connectionString: db.url });
  await analyze.connect();
  await analyze.query('ANALYZE').finally(() => analyze.end());
  // Each route is measured in rounds, each round its baseline and itself back to back (in turns,
  // which goes first): the ratio is taken per round and the median reported, so a change in the
  // machine's speed during the run (this shared machine's rates drift by a third in an afternoon),
  // or the database's background work after a heavy run, falls on both sides of a ratio.
  for (const connections of [1, 32]) {
    for (const r of routes) {
      progress(`request path: ${r.route} at ${connections} connection(s), ${opts.rounds} round(s)`);
      const rounds: { route: Measured; base: Measured }[] = [];
      for (let round = 0; round < opts.rounds; round++) {
        if (round % 2 === 0) {
          const base = await baselines[r.baseline](connections);
          rounds.push({ base, route: await r.run(connections) });
        } else {
          const route = await r.run(connections);
          rounds.push({ route, base: await baselines[r.baseline](connections) });
        }
      }
      const ratios = rounds.map((x) => x.route.rps / x.base.rps);
      report.rows.push({
        route: r.route,
        connections,
        rps: median(rounds.map((x) => x.route.rps)),
        p50: median(rounds.map((x) => x.route.p50)),
        p99: median(rounds.map((x) => x.route.p99)),
        errors: rounds.reduce((n, x) => n + x.route.errors, 0),
        baseline: r.baseline === 'insert' ? 'bare INSERT' : 'bare HS256 + SELECT',
        baselineRps: median(rounds.map((x) => x.base.rps)),
        ratio: median(ratios),
        ratioRange: [Math.min(...ratios), Math.max(...ratios)],
      });
    }
  }

  // Nothing traded for speed: 50 concurrent requests with one Idempotency-Key make one order.
  const key = `same-key-${Date.now()}`;
  const body = orderBody();
  const answers = await Promise.all(
    Array.from({ length: 50 }, () =>
      fetch(`${base}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key, ...auth },
        body,
      }).then(async (r) => ({
        status: r.status,
        reference: ((await r.json()) as { reference?: string }).reference,
      })),
    ),
  );
  const references = new Set(answers.map((a) => a.reference));
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders WHERE reference = ANY($1)',
      [[...references].filter(Boolean)],
    );
    report.notes.push(
      `idempotency: 50 concurrent POST /orders with one Idempotency-Key -> statuses ${[...new Set(answers.map((a) => a.status))].join('/')}, ${references.size} distinct reference(s), ${rows[0]!.n} order(s) stored`,
    );

    // Page mode at depth: `total` and deep pages with many orders for one merchant.
    progress(`request path: ${opts.depthRows} orders for one merchant, then pages at depth`);
    await client.query(
      `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient, amount_units,
                           status, expires_at, created_at, updated_at, amount_unique)
       SELECT translate(md5('depth' || g), '0', 'z'), o.merchant_id, o.wallet_id, o.network, o.token, o.token_mint, o.recipient, 1000000 + g,
              'EXPIRED', now() - interval '2 days', now() - interval '2 days', now(), false
         FROM generate_series(1, $1) AS g, (SELECT * FROM orders WHERE reference = $2) AS o`,
      [opts.depthRows, first.reference],
    );
    await client.query('ANALYZE orders');
    const timeGet = async (url: string, times = 20) => {
      const samples: number[] = [];
      for (let i = 0; i < times; i++) {
        const t = performance.now();
        const res = await fetch(url, { headers: auth });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${url}: ${res.status}`);
        samples.push(performance.now() - t);
      }
      return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
    };
    const page1 = await timeGet(`${base}/users/me/orders?page=1&per_page=50`);
    const deepPage = await timeGet(
      `${base}/users/me/orders?page=${Math.floor(opts.depthRows / 50) - 1}&per_page=50`,
    );
    let cursor = '';
    const cursorStart = await timeGet(`${base}/users/me/orders?cursor=&per_page=50`);
    const walk = Math.max(1, Math.min(200, Math.floor(opts.depthRows / 50) - 2));
    for (let i = 0; i < walk; i++) {
      const res = (await (
        await fetch(`${base}/users/me/orders?cursor=${encodeURIComponent(cursor)}&per_page=50`, {
          headers: auth,
        })
      ).json()) as { nextCursor: string };
      cursor = res.nextCursor;
    }
    const cursorDeep = await timeGet(
      `${base}/users/me/orders?cursor=${encodeURIComponent(cursor)}&per_page=50`,
    );
    report.notes.push(
      `pages with ${opts.depthRows} orders for one merchant (p50): page 1 with total ${page1.toFixed(1)} ms; page ${Math.floor(opts.depthRows / 50) - 1} ${deepPage.toFixed(1)} ms; first cursor page ${cursorStart.toFixed(1)} ms, cursor page ${walk} ${cursorDeep.toFixed(1)} ms`,
    );
  } finally {
    await client.end();
  }
  return report;
}

export function printPathReport(report: PathReport, print: (line: string) => void) {
  const header = [
    'route',
    'conns',
    'req/s',
    'p50 ms',
    'p99 ms',
    'baseline',
    'base req/s',
    'ratio',
    'rounds range',
    'errors',
  ];
  const lines = report.rows.map((r) => [
    r.route,
    String(r.connections),
    r.rps.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    r.baseline,
    r.baselineRps.toFixed(0),
    r.ratio.toFixed(2),
    `${r.ratioRange[0].toFixed(2)}–${r.ratioRange[1].toFixed(2)}`,
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  print(fmt(header));
  print(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) print(fmt(l));
  for (const note of report.notes) print(`- ${note}`);
}
