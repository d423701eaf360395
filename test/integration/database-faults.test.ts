import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayedPostgres, type OwnPostgres } from '../support/own-postgres';
import { newMerchant, startTestServer, TEST_PASSWORD } from '../support/test-server';
import type { ApiResponse, TestServer } from '../support/test-server';

/**
 * The database misbehaves under a running server: a PostgreSQL of this test's own, behind a TCP
 * relay that can refuse, reset, or stop forwarding without closing (a partition). Every request
 * answers within the configured timeouts, 503 UPSTREAM_UNAVAILABLE with Retry-After when the
 * database cannot serve it, nothing is lost or doubled, and the service recovers by itself.
 */

const TIMEOUTS = { connect: 500, acquire: 500, statement: 1000, ready: 300 };
/**
 * The longest a request may take while the database does not answer: a pool wait, then a
 * statement the client gives up on (statement timeout + 1 s), then its transaction's ROLLBACK,
 * which waits as long; plus a second for the test's own scheduling.
 */
const BOUND_MS = TIMEOUTS.acquire + TIMEOUTS.connect + 2 * (TIMEOUTS.statement + 1000) + 1000;
const READY_BOUND_MS = TIMEOUTS.ready + 700;

let relayed: Awaited<ReturnType<typeof startRelayedPostgres>>;
let own: OwnPostgres;
let proxy: typeof relayed.proxy;
let server: TestServer;
let merchant: Awaited<ReturnType<typeof newMerchant>>;
let reference: string;

beforeAll(async () => {
  relayed = await startRelayedPostgres();
  ({ own, proxy } = relayed);
  server = await startTestServer({
    DATABASE_URL: relayed.url,
    JOBS: 'none',
    DB_CONNECT_TIMEOUT_MS: String(TIMEOUTS.connect),
    DB_ACQUIRE_TIMEOUT_MS: String(TIMEOUTS.acquire),
    DB_STATEMENT_TIMEOUT_MS: String(TIMEOUTS.statement),
    READY_TIMEOUT_MS: String(TIMEOUTS.ready),
  });
  merchant = await newMerchant(server, { wallets: ['SOLANA'] });
  const order = await server.api('POST', '/orders', {
    token: merchant.token,
    body: { network: 'SOLANA', token: 'USDT', amount: '1' },
  });
  reference = order.body.reference;
}, 120_000);
afterAll(async () => {
  await server?.stop().catch(() => {});
  await relayed?.destroy();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { what: string; status: number; ms: number; res: ApiResponse<any>; key?: string };
let keys = 0;

/** The requests a client makes, each timed: reads, a keyed creation, a login, the payer's page, readiness. */
const requests: Record<string, () => Promise<Omit<Answer, 'ms' | 'what'>>> = {
  me: async () => wrap(await server.api('GET', '/users/me', { token: merchant.token })),
  order: async () => wrap(await server.api('GET', `/orders/${reference}`, { token: merchant.token })),
  create: async () => {
    const key = `fault-${++keys}`;
    return { ...wrap(await create(key)), key };
  },
  login: async () =>
    wrap(
      await server.api('POST', '/auth/login', { body: { email: merchant.email, password: TEST_PASSWORD } }),
    ),
  payer: async () => wrap(await server.api('GET', `/pay/${reference}/info`)),
};
const wrap = (res: ApiResponse) => ({ status: res.status, res });
const create = (key: string) =>
  server.api('POST', '/orders', {
    token: merchant.token,
    body: { network: 'SOLANA', token: 'USDT', amount: '3.5', description: key },
    headers: { 'idempotency-key': key },
  });

async function timed(what: string): Promise<Answer> {
  const started = performance.now();
  const answer = await requests[what]!();
  return { what, ...answer, ms: performance.now() - started };
}

/** `workers` clients sending every kind of request in turn until `stop` resolves. */
async function traffic(workers: number, stop: Promise<void>): Promise<Answer[]> {
  let done = false;
  void stop.then(() => (done = true));
  const kinds = Object.keys(requests);
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; !done; i++) answers.push(await timed(kinds[i % kinds.length]!));
    }),
  );
  return answers;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function expectUnavailable(answer: Answer) {
  expect(answer.status, `${answer.what}: ${answer.res.text}`).toBe(503);
  expect(answer.res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
  expect(answer.res.headers.get('retry-after')).toMatch(/^\d+$/);
}

/** Each answer in time, and either served or a 503 that says the database is unavailable. */
function expectBoundedAndHonest(answers: Answer[]) {
  for (const answer of answers) {
    expect(answer.ms, `${answer.what} took ${Math.round(answer.ms)} ms`).toBeLessThanOrEqual(BOUND_MS);
    if (answer.status >= 500) expectUnavailable(answer);
    else expect([200, 201], `${answer.what}: ${answer.res.text}`).toContain(answer.status);
  }
}

async function waitForRecovery() {
  for (let i = 0; i < 100; i++) {
    const [me, ready] = await Promise.all([timed('me'), server.api('GET', '/readyz')]);
    if (me.status === 200 && ready.status === 200) return;
    await sleep(100);
  }
  throw new Error('the service did not recover');
}

/** Every creation key sent, sent again: each gives one order, and no key gives two. */
async function expectOneOrderPerKey(answers: Answer[]) {
  const sent = [...new Set(answers.flatMap((a) => (a.key ? [a.key] : [])))];
  for (const key of sent) expect((await create(key)).status, key).toBe(201);
  if (sent.length === 0) return;
  const [rows] = (await server.deps.db.sequelize.query(
    'SELECT count(*)::int AS orders FROM orders WHERE description IN (:keys)',
    { replacements: { keys: sent } },
  )) as [{ orders: number }[], unknown];
  expect(rows[0]?.orders).toBe(sent.length);
}

/**
 * Traffic from `workers` clients while `fault` runs (it breaks the database, waits, and mends it),
 * then the checks every fault shares: each answer in time and honest, the fault reached, recovery,
 * one order per Idempotency-Key.
 */
async function underTraffic(workers: number, fault: () => Promise<void>) {
  let faultDone!: () => void;
  const load = traffic(workers, new Promise<void>((resolve) => (faultDone = resolve)));
  await sleep(500);
  await fault();
  await sleep(500);
  faultDone();
  const answers = await load;
  expectBoundedAndHonest(answers);
  expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(5);
  await waitForRecovery();
  await expectOneOrderPerKey(answers);
}

describe('a partition: the database stops answering without refusing', () => {
  it('answers every request within the timeouts, 503 with Retry-After when it cannot serve it, and recovers', async () => {
    await underTraffic(6, async () => {
      proxy.partition();
      await sleep(1500);
      // Meanwhile: readiness says not ready, fast; liveness stays up.
      const readyStarted = performance.now();
      expect((await server.api('GET', '/readyz')).status).toBe(503);
      expect(performance.now() - readyStarted).toBeLessThanOrEqual(READY_BOUND_MS);
      expect((await server.api('GET', '/healthz')).status).toBe(200);
      // Longer than any request may take: a request that waited for the partition to end would show.
      await sleep(BOUND_MS + 2000 - 1500);
      proxy.heal();
    });
  }, 60_000);
});

describe('the database stopped and started again', () => {
  it('answers 503 with Retry-After within the timeouts while it is down, and recovers without a restart', async () => {
    await underTraffic(4, async () => {
      await own.stop();
      await sleep(3000);
      await own.start();
    });
  }, 60_000);
});

describe('every form of database failure is a 503, wherever it surfaces', () => {
  /** The requests of one phase, started now: each must be a 503, in time. */
  const phase = async () => {
    const answers = await Promise.all(['me', 'order', 'create', 'login', 'payer'].map(timed));
    for (const answer of answers) {
      expect(answer.ms, `${answer.what} took ${Math.round(answer.ms)} ms`).toBeLessThanOrEqual(BOUND_MS);
      expectUnavailable(answer);
    }
    return answers;
  };
  /**
   * The instance no longer trusts what it remembers: its change feed noticed the failure too (a
   * silent one by its heartbeat, within a second and the connect timeout). Until then a merchant
   * it remembers is answered from memory (docs/operations.md).
   */
  const untilForgotten = async () => {
    for (let i = 0; i < 200 && server.deps.db.changes.live; i++) await sleep(20);
    expect(server.deps.db.changes.live).toBe(false);
  };
  const endSessions = () =>
    own.admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'app'`);

  /**
   * One failure met by a phase of requests: `before` it starts (the instance has noticed by then),
   * `during` it (300 ms in, a statement under way) when given, mended by `after` when it needs it.
   * Then the instance recovers, and no key made two orders.
   */
  async function survives(fault: {
    before: () => Promise<unknown> | void;
    during?: () => Promise<unknown> | void;
    after?: () => Promise<unknown> | void;
  }) {
    await fault.before();
    await untilForgotten();
    const pending = phase();
    if (fault.during) {
      await sleep(300);
      await fault.during();
    }
    const answers = await pending;
    await fault.after?.();
    await waitForRecovery();
    await expectOneOrderPerKey(answers);
  }

  it('connection refused', async () => {
    await survives({ before: () => proxy.cut(), after: () => proxy.restore() });
  });

  it('connection reset under a statement', async () => {
    await survives({
      before: () => proxy.partition(),
      during: () => {
        proxy.reset();
        proxy.heal();
      },
    });
  });

  it('connection terminated by the server under a statement (the login limiter included)', async () => {
    await survives({
      before: () => proxy.partition(),
      during: async () => {
        await endSessions();
        await own.admin(`ALTER ROLE app CONNECTION LIMIT 0`);
        proxy.heal();
      },
      after: () => own.admin(`ALTER ROLE app CONNECTION LIMIT -1`),
    });
  });

  it('too many connections', async () => {
    await survives({
      before: async () => {
        await own.admin(`ALTER ROLE app CONNECTION LIMIT 0`);
        await endSessions();
      },
      after: () => own.admin(`ALTER ROLE app CONNECTION LIMIT -1`),
    });
  });

  it('the server shutting down', async () => {
    await survives({
      before: async () => {
        await endSessions();
        await own.beginShutdown();
      },
      after: async () => {
        await own.stop();
        await own.start();
      },
    });
  });

  it('timed out: no answer at all', async () => {
    await survives({ before: () => proxy.partition(), after: () => proxy.heal() });
  });
});
