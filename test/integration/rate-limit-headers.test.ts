import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../../server/docs/openapi';
import { TEST_PASSWORD, newMerchant, startTestServer } from '../support/test-server';
import type { ApiResponse, TestServer } from '../support/test-server';

/**
 * Every answer of a rate-limited route says where its limit stands (RateLimit-Limit, -Remaining,
 * -Reset, as openapi.json documents them), successes and errors alike, and a 429 adds Retry-After.
 */

const MERCHANT_LIMIT = 6;
const PUBLIC_LIMIT = 5;
const LOGIN_LIMIT = 4;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    API_RATE_LIMIT_PER_SECOND: String(MERCHANT_LIMIT),
    PUBLIC_RATE_LIMIT_PER_MINUTE: String(PUBLIC_LIMIT),
    LOGIN_RATE_LIMIT_MAX: String(LOGIN_LIMIT),
    TRUST_PROXY: '1',
    JOBS: 'none',
  });
});
afterAll(() => server?.stop());

let clients = 0;
/** A client address of its own (a documentation range): each test counts from a fresh quota. */
const newClient = () => `203.0.113.${++clients}`;

const limits = (res: ApiResponse) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: Number(res.headers.get('ratelimit-remaining')),
  reset: Number(res.headers.get('ratelimit-reset')),
});

/** Waits for the start of a new second, so that a few quick requests fall in one per-second window. */
async function startOfSecond() {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
}

describe('RateLimit headers', () => {
  it('a merchant route: the per-merchant quota on every answer, decreasing, then 429 with Retry-After', async () => {
    const m = await newMerchant(server);
    const unknown = '7Z3x7x5iYhPE7vJv2PUs4bUE9N7K1V3i8GsMoqYpT1rX';
    await startOfSecond();
    const answers: ApiResponse[] = [];
    // Successes and errors (400, 404) alike count and say so.
    for (const path of ['/users/me', '/orders/not-a-reference', `/orders/${unknown}`, '/users/me'])
      answers.push(await server.api('GET', path, { token: m.token }));
    expect(answers.map((r) => r.status)).toEqual([200, 400, 404, 200]);
    for (const res of answers) {
      expect(limits(res).limit).toBe(String(MERCHANT_LIMIT));
      expect(limits(res).reset).toBeGreaterThanOrEqual(0);
      expect(limits(res).reset).toBeLessThanOrEqual(1);
    }
    expect(answers.map((r) => limits(r).remaining)).toEqual([5, 4, 3, 2]);

    answers.length = 0;
    for (let i = 0; i < 3; i++) answers.push(await server.api('GET', '/users/me', { token: m.token }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 429]);
    const refused = answers[2]!;
    expect(refused.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(limits(refused)).toMatchObject({ limit: String(MERCHANT_LIMIT), remaining: 0 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('a public route: the per-address quota of the minute, on 404s too, then 429 with Retry-After', async () => {
    const client = newClient();
    const answers: ApiResponse[] = [];
    for (let i = 0; i <= PUBLIC_LIMIT; i++)
      answers.push(
        await server.api('GET', '/pay/7Z3x7x5iYhPE7vJv2PUs4bUE9N7K1V3i8GsMoqYpT1rX/info', {
          headers: { 'x-forwarded-for': client },
        }),
      );
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 429]);
    expect(answers.map((r) => limits(r).remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    for (const res of answers) {
      expect(limits(res).limit).toBe(String(PUBLIC_LIMIT));
      expect(limits(res).reset).toBeGreaterThan(0);
      expect(limits(res).reset).toBeLessThanOrEqual(60);
    }
    expect(Number(answers[5]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Browsers on other origins (payment pages) may read them.
    expect(answers[0]!.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining/);
  });

  it('logins: failed attempts count down, a success gives its point back', async () => {
    const m = await newMerchant(server);
    const client = newClient();
    const login = (password: string) =>
      server.api('POST', '/auth/login', {
        body: { email: m.email, password },
        headers: { 'x-forwarded-for': client },
      });
    const wrong1 = await login('wrong password 1');
    const wrong2 = await login('wrong password 2');
    const right = await login(TEST_PASSWORD);
    expect([wrong1.status, wrong2.status, right.status]).toEqual([401, 401, 200]);
    expect([wrong1, wrong2, right].map((r) => limits(r).limit)).toEqual(Array(3).fill(String(LOGIN_LIMIT)));
    expect([wrong1, wrong2, right].map((r) => limits(r).remaining)).toEqual([3, 2, 2]);
  });

  it('openapi.json documents them on the answers that carry them, and not on the probes', () => {
    const doc = generateOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
      components: { headers: Record<string, unknown> };
    };
    const headers = (path: string, method: string, status: string) =>
      Object.keys(doc.paths[path]![method]!.responses[status]!.headers ?? {});
    const limitHeaders = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
    expect(headers('/users/me', 'get', '200')).toEqual(expect.arrayContaining(limitHeaders));
    expect(headers('/orders/{reference}', 'get', '404')).toEqual(expect.arrayContaining(limitHeaders));
    expect(headers('/pay/{reference}/info', 'get', '404')).toEqual(
      expect.arrayContaining([...limitHeaders, 'Access-Control-Allow-Origin']),
    );
    expect(headers('/auth/login', 'post', '429')).toEqual(
      expect.arrayContaining([...limitHeaders, 'Retry-After']),
    );
    expect(headers('/healthz', 'get', '200')).toEqual([]);
    expect(headers('/metrics', 'get', '200')).toEqual([]);
    for (const name of [...limitHeaders, 'Retry-After']) expect(doc.components.headers[name]).toBeDefined();
  });

  it('the health routes are not limited and say nothing of limits', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await server.api('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});
