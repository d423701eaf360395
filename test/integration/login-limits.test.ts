import { pbkdf2, pbkdf2Sync } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_PASSWORD, expectErrorBody, newMerchant, startTestServer } from '../support/test-server';
import type { ApiResponse, TestServer } from '../support/test-server';

/**
 * Logins sent at once: correct ones all get in, failures stay limited (at most
 * LOGIN_RATE_LIMIT_MAX reach the password check per client and e-mail and window), and Retry-After
 * is true. Counts and statuses only: nothing here is measured by time, and nothing may depend on
 * how fast password checks are (argon2: tens of ms of CPU each, seconds each on a loaded machine).
 */

// 20 password checks one after the other at load 20 on 2 cores take about a minute.
vi.setConfig({ testTimeout: 180_000 });

const MAX = 5;
/** Longer than MAX checks take on a loaded machine: a burst's failures fall in one window. */
const WINDOW_SECONDS = 20;
let server: TestServer;
let other: TestServer;
/**
 * A window long enough for many password checks one after the other on a slow machine (each costs
 * tens of ms): where a test is about counts, not about the window ending.
 */
let patient: TestServer;

beforeAll(async () => {
  // Each test is its own client (X-Forwarded-For from a trusted proxy): the per-client counter
  // (5 × MAX failures) of one test never reaches another.
  const env = {
    LOGIN_RATE_LIMIT_MAX: String(MAX),
    LOGIN_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    TRUST_PROXY: '1',
  };
  server = await startTestServer(env);
  other = await startTestServer({ ...env, JOBS: 'none' });
  patient = await startTestServer({ ...env, LOGIN_RATE_LIMIT_WINDOW_SECONDS: '600', JOBS: 'none' });
});
afterAll(async () => {
  await patient?.stop();
  await other?.stop();
  await server?.stop();
});

let clients = 0;
/** A client address of its own (a documentation range, unique in this run). */
const newClient = () => {
  clients++;
  return `198.51.${100 + Math.floor(clients / 250)}.${(clients % 250) + 1}`;
};

function login(client: string, email: string, password: string, on: TestServer = server) {
  return on.api('POST', '/auth/login', {
    body: { email, password },
    headers: { 'x-forwarded-for': client },
  });
}

const statuses = (answers: ApiResponse[]) =>
  answers.reduce<Record<number, number>>(
    (count, r) => ({ ...count, [r.status]: (count[r.status] ?? 0) + 1 }),
    {},
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keeps every thread of libuv's pool (where argon2 checks passwords) busy for about `ms`: one
 * PBKDF2 each, its rounds sized by timing a small one here first.
 */
function occupyThreadPool(ms: number): Promise<unknown> {
  const sample = 20_000;
  const started = performance.now();
  pbkdf2Sync('busy', 'salt', sample, 32, 'sha512');
  const rounds = Math.ceil((sample * ms) / Math.max(performance.now() - started, 1));
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  return Promise.all(
    Array.from({ length: threads }, () => promisify(pbkdf2)('busy', 'salt', rounds, 32, 'sha512')),
  );
}

describe('simultaneous logins for one account', () => {
  it('lets 20 correct logins sent at once all in (the limit is 5), and the account stays open', async () => {
    const m = await newMerchant(patient);
    const client = newClient();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => login(client, m.email, TEST_PASSWORD, patient)),
    );
    expect(statuses(answers)).toEqual({ 200: 20 });
    for (const answer of answers) expect(answer.body.tokenType).toBe('Bearer');
    // Every success gave its point back: the next ones are not refused, and MAX failures still fit.
    expect((await login(client, m.email, TEST_PASSWORD, patient)).status).toBe(200);
    for (let i = 0; i < MAX; i++)
      expect((await login(client, m.email, `wrong ${i}`, patient)).status).toBe(401);
    expectErrorBody(await login(client, m.email, `wrong ${MAX}`, patient), 429, 'RATE_LIMITED');
  });

  it('lets 20 correct logins sent at once all in however long the password checks ahead take', async () => {
    const m = await newMerchant(patient);
    const client = newClient();
    // Others are slow: every thread that checks passwords is busy for seconds first (as on a
    // loaded machine), so the 15 logins waiting for the 5 points see no check settle for that long.
    const busy = occupyThreadPool(5_000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => login(client, m.email, TEST_PASSWORD, patient)),
    );
    await busy;
    expect(statuses(answers)).toEqual({ 200: 20 });
    // The limit is as before: MAX failures, then refused.
    for (let i = 0; i < MAX; i++)
      expect((await login(client, m.email, `wrong ${i}`, patient)).status).toBe(401);
    expectErrorBody(await login(client, m.email, TEST_PASSWORD, patient), 429, 'RATE_LIMITED');
  });

  it('lets correct logins in while fewer failures than the limit are sent with them', async () => {
    const m = await newMerchant(server);
    const client = newClient();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        login(client, m.email, i % 4 === 0 ? `wrong ${i}` : TEST_PASSWORD).then((r) => ({ i, r })),
      ),
    );
    for (const { i, r } of answers) expect(r.status, `attempt ${i}`).toBe(i % 4 === 0 ? 401 : 200);
  });

  it('counts correct logins sent at once to two instances right (the store is shared)', async () => {
    const m = await newMerchant(server);
    const client = newClient();
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) => login(client, m.email, TEST_PASSWORD, i % 2 ? other : server)),
    );
    expect(statuses(answers)).toEqual({ 200: 14 });
  });
});

describe('failed logins sent at once', () => {
  it('lets at most LOGIN_RATE_LIMIT_MAX of 30 reach the password check; Retry-After is true', async () => {
    const m = await newMerchant(server);
    const client = newClient();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(client, m.email, `wrong password ${i}`)),
    );
    const failed = answers.filter((r) => r.status !== 429);
    const refused = answers.filter((r) => r.status === 429);
    expect(failed.length).toBeLessThanOrEqual(MAX);
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed) expectErrorBody(r, 401, 'UNAUTHENTICATED');
    expect(refused.length).toBe(30 - failed.length);
    const waits = refused.map((r) => {
      expectErrorBody(r, 429, 'RATE_LIMITED');
      const seconds = Number(r.headers.get('retry-after'));
      expect(Number.isInteger(seconds)).toBe(true);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(WINDOW_SECONDS);
      return seconds;
    });

    // Still refused at once, even with the right password, on either instance.
    for (const on of [server, other]) {
      const again = await login(client, m.email, TEST_PASSWORD, on);
      expectErrorBody(again, 429, 'RATE_LIMITED');
      const seconds = Number(again.headers.get('retry-after'));
      expect(seconds).toBeGreaterThan(0);
      waits.push(seconds);
    }

    // Once Retry-After has passed, the window is over: a correct login gets in, a wrong one is a 401.
    await sleep(Math.max(...waits) * 1000);
    expect((await login(client, m.email, TEST_PASSWORD)).status).toBe(200);
    expectErrorBody(await login(client, m.email, 'wrong again'), 401, 'UNAUTHENTICATED');
    expect((await login(client, m.email, TEST_PASSWORD, other)).status).toBe(200);
  });

  it('gives the point of a correct login after failures back', async () => {
    const m = await newMerchant(patient);
    const client = newClient();
    for (let i = 0; i < MAX - 1; i++)
      expect((await login(client, m.email, `wrong ${i}`, patient)).status).toBe(401);
    expect((await login(client, m.email, TEST_PASSWORD, patient)).status).toBe(200);
    expect((await login(client, m.email, TEST_PASSWORD, patient)).status).toBe(200);
    // Had the successes kept their points, this would be over the limit.
    expectErrorBody(await login(client, m.email, 'wrong last', patient), 401, 'UNAUTHENTICATED');
    expectErrorBody(await login(client, m.email, TEST_PASSWORD, patient), 429, 'RATE_LIMITED');
  });

  it('limits failures per client too (5 × the limit), across e-mails', async () => {
    const client = newClient();
    const emails = Array.from({ length: 7 }, (_, i) => `nobody-${i}-${Date.now()}@example.com`);
    const answers = await Promise.all(
      emails.flatMap((email) =>
        Array.from({ length: MAX }, (_, i) => login(client, email, `wrong ${i}`, patient)),
      ),
    );
    const counts = statuses(answers);
    expect(counts[401]).toBeLessThanOrEqual(5 * MAX);
    // Every answer is a refusal of one of the two kinds (the counts name any other status).
    expect((counts[401] ?? 0) + (counts[429] ?? 0), JSON.stringify(counts)).toBe(emails.length * MAX);
    // The client is refused for any e-mail now, another client is not.
    const m = await newMerchant(patient);
    expectErrorBody(await login(client, m.email, TEST_PASSWORD, patient), 429, 'RATE_LIMITED');
    expect((await login(newClient(), m.email, TEST_PASSWORD, patient)).status).toBe(200);
  });
});

describe('inputs that must not reach the database unbounded', () => {
  it('answers an over-long e-mail or password with 400, never a 500', async () => {
    const client = newClient();
    for (const body of [
      { email: `${'a'.repeat(300)}@example.com`, password: 'x' },
      { email: `a@${'b'.repeat(250)}.com`, password: 'x' },
      { email: 'a@example.com', password: 'p'.repeat(1025) },
      { email: `${'é'.repeat(5000)}@example.com`, password: 'x' },
    ]) {
      const res = await server.api('POST', '/auth/login', { body, headers: { 'x-forwarded-for': client } });
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
    }
  });

  it('keys a hostile forwarded address within bounds', async () => {
    const m = await newMerchant(server);
    const hostile = `${'1'.repeat(3000)}`;
    const res = await login(hostile, m.email, 'wrong');
    expectErrorBody(res, 401, 'UNAUTHENTICATED');
    const info = await server.api('GET', '/pay/11111111111111111111111111111111/info', {
      headers: { 'x-forwarded-for': hostile },
    });
    expectErrorBody(info, 404, 'NOT_FOUND');
  });
});
