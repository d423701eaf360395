import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startRelayedPostgres } from '../support/own-postgres';
import { newMerchant, startTestServer } from '../support/test-server';
import type { ApiResponse, TestServer } from '../support/test-server';

/**
 * Every database connection black-holed for 12 s (open, and silent: each byte either way is
 * dropped) under steady traffic, on the service's default timeouts: every answer comes within the
 * 5 s the service promises, an order is answered 201 only once it is committed, one answered 503
 * is not there afterwards or its Idempotency-Key gives it back, /readyz says 503 meanwhile, and
 * the service recovers by itself (the connections left out of step are not used again).
 */

const PROMISED_MS = 5000;
/** The test machine's own share (2 shared cores, other suites running): its HTTP client, its timers. */
const SLACK_MS = 750;
const READY_MS = 1000;
const CUT_MS = 12_000;
/** One request every this often, whatever the earlier ones are doing: steady traffic, not a closed loop. */
const EVERY_MS = 90;

let db: Awaited<ReturnType<typeof startRelayedPostgres>>;
let server: TestServer;
let merchant: Awaited<ReturnType<typeof newMerchant>>;
let reference: string;

beforeAll(async () => {
  db = await startRelayedPostgres();
  // The defaults of every database timeout and of the pool (the test server's own are more lenient).
  const defaults = loadConfig({});
  server = await startTestServer({
    DATABASE_URL: db.url,
    JOBS: 'none',
    DB_POOL_MAX: String(defaults.DB_POOL_MAX),
    DB_ACQUIRE_TIMEOUT_MS: String(defaults.DB_ACQUIRE_TIMEOUT_MS),
    DB_CONNECT_TIMEOUT_MS: String(defaults.DB_CONNECT_TIMEOUT_MS),
    DB_STATEMENT_TIMEOUT_MS: String(defaults.DB_STATEMENT_TIMEOUT_MS),
    READY_TIMEOUT_MS: String(READY_MS),
  });
  merchant = await newMerchant(server, { wallets: ['SOLANA'] });
  reference = (await create('first')).body.reference;
}, 120_000);
afterAll(async () => {
  await server?.stop().catch(() => {});
  await db?.destroy();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { what: string; at: number; ms: number; res: ApiResponse<any>; key?: string };

const create = (key: string) =>
  server.api('POST', '/orders', {
    token: merchant.token,
    body: { network: 'SOLANA', token: 'USDT', amount: '2.5', description: key },
    headers: { 'idempotency-key': key },
  });
let keys = 0;
const requests: Record<string, () => Promise<{ res: ApiResponse; key?: string }>> = {
  order: async () => ({ res: await server.api('GET', `/orders/${reference}`, { token: merchant.token }) }),
  me: async () => ({ res: await server.api('GET', '/users/me', { token: merchant.token }) }),
  create: async () => {
    const key = `partition-${++keys}`;
    return { res: await create(key), key };
  },
  ready: async () => ({ res: await server.api('GET', '/readyz') }),
};
/** A request in a transaction (the merchant's row locked): its first statement unanswered, then its ROLLBACK. */
const rotateSecret = async (): Promise<Answer> => {
  const at = performance.now() - t0;
  const res = await server.api('POST', '/users/me/webhook-secret', { token: merchant.token });
  return { what: 'rotate', at, res, ms: performance.now() - t0 - at };
};

const t0 = performance.now();
async function timed(what: string): Promise<Answer> {
  const at = performance.now() - t0;
  const answer = await requests[what]!();
  return { what, at, ...answer, ms: performance.now() - t0 - at };
}
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const show = (a: Answer) =>
  `${a.what} at ${Math.round(a.at)} ms: ${a.res.status} after ${Math.round(a.ms)} ms`;

function expectUnavailable(answer: Answer) {
  expect(answer.res.status, `${show(answer)} ${answer.res.text}`).toBe(503);
  // Readiness is for load balancers: a 503 of its own, without the API's error body.
  if (answer.what !== 'ready') expect(answer.res.headers.get('retry-after')).toMatch(/^\d+$/);
}

/** Sends one request every EVERY_MS, each kind in turn, until `stop()`; the answers once all came. */
function steadyTraffic() {
  const kinds = Object.keys(requests);
  const pending: Promise<Answer>[] = [];
  let i = 0;
  const timer = setInterval(() => pending.push(timed(kinds[i++ % kinds.length]!)), EVERY_MS);
  return async () => {
    clearInterval(timer);
    return Promise.all(pending);
  };
}

async function waitForRecovery() {
  for (let i = 0; i < 150; i++) {
    const [me, ready, made] = await Promise.all([timed('me'), server.api('GET', '/readyz'), timed('create')]);
    if (me.res.status === 200 && ready.status === 200 && made.res.status === 201) return;
    await sleep(100);
  }
  throw new Error('the service did not recover');
}

/**
 * An order is there afterwards exactly when its creation was answered 201 with it, or, answered
 * otherwise, when its Idempotency-Key sent again gives that same order back; never two for a key.
 */
async function expectCreationsHonest(answers: Answer[]) {
  const sent = answers.filter((a) => a.key);
  const [rows] = (await server.deps.db.sequelize.query(
    'SELECT description AS key, reference FROM orders WHERE description IN (:keys)',
    { replacements: { keys: sent.map((a) => a.key) } },
  )) as [{ key: string; reference: string }[], unknown];
  const made = new Map<string, string[]>();
  for (const row of rows) made.set(row.key, [...(made.get(row.key) ?? []), row.reference]);
  for (const answer of sent) {
    const references = made.get(answer.key!) ?? [];
    expect(references.length, answer.key).toBeLessThanOrEqual(1);
    if (answer.res.status === 201) {
      expect(references, `${show(answer)}: answered 201, not committed`).toEqual([answer.res.body.reference]);
    } else if (references.length === 1) {
      const again = await create(answer.key!);
      expect(again.status, `${show(answer)}, committed: its key again`).toBe(201);
      expect(again.body.reference).toBe(references[0]);
    }
  }
}

describe('every database connection black-holed for 12 s under steady traffic', () => {
  it('answers each request within 5 s, acknowledges only committed orders, says not ready, and recovers', async () => {
    const stop = steadyTraffic();
    await sleep(1500);
    const cutAt = performance.now() - t0;
    db.proxy.blackHole();
    await sleep(CUT_MS);
    const healedAt = performance.now() - t0;
    db.proxy.heal();
    await sleep(3000);
    const answers = await stop();
    const during = answers.filter((a) => a.at >= cutAt && a.at < healedAt);
    expect(during.length).toBeGreaterThan(100);

    for (const answer of answers) {
      expect(answer.ms, show(answer)).toBeLessThanOrEqual(PROMISED_MS + SLACK_MS);
      if (answer.res.status >= 500) expectUnavailable(answer);
      else expect([200, 201], `${show(answer)} ${answer.res.text}`).toContain(answer.res.status);
    }
    // Readiness: 503 within its own bound for every probe sent during the partition, those whose
    // statement could get through once it ends included (the instance is not back yet).
    const probes = during.filter((a) => a.what === 'ready');
    expect(probes.length).toBeGreaterThan(25);
    for (const probe of probes) {
      expect(probe.res.status, show(probe)).toBe(503);
      expect(probe.ms, show(probe)).toBeLessThanOrEqual(READY_MS + SLACK_MS);
    }
    // Nothing needing the database is served once the partition has been noticed.
    const noticed = during.filter((a) => a.at > cutAt + PROMISED_MS && a.at + a.ms < healedAt);
    expect(noticed.length).toBeGreaterThan(40);
    for (const answer of noticed) expectUnavailable(answer);

    await waitForRecovery();
    await expectCreationsHonest(answers);
  }, 90_000);

  it('five creations sent together right after the cut each answer 503 within 5 s, and none is made', async () => {
    await waitForRecovery();
    // Every connection of the pool in use just before: the creations find them idle, then silent.
    await Promise.all(Array.from({ length: 10 }, () => timed('order')));
    db.proxy.blackHole();
    const answers = await Promise.all(Array.from({ length: 5 }, () => timed('create')));
    db.proxy.heal();
    for (const answer of answers) {
      expectUnavailable(answer);
      expect(answer.ms, show(answer)).toBeLessThanOrEqual(PROMISED_MS + SLACK_MS);
    }
    await waitForRecovery();
    await expectCreationsHonest(answers);
  }, 60_000);

  it('requests in a transaction answer 503 within 5 s too: their ROLLBACK does not wait a second time', async () => {
    await waitForRecovery();
    // The merchant's API quota is taken from the database once a second: taken at the start of a
    // second here, the requests below spend it from memory and reach their transaction.
    await sleep(1000 - (Date.now() % 1000) + 20);
    expect((await rotateSecret()).res.status).toBe(200);
    db.proxy.blackHole();
    const answers = await Promise.all(Array.from({ length: 3 }, rotateSecret));
    db.proxy.heal();
    for (const answer of answers) {
      expectUnavailable(answer);
      expect(answer.ms, show(answer)).toBeLessThanOrEqual(PROMISED_MS + SLACK_MS);
    }
    await waitForRecovery();
  }, 60_000);
});
