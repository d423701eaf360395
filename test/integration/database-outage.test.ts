import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, newMerchant, startTestServer, type TestServer } from '../support/test-server';

/**
 * The database goes away under a running server (its connections are cut and new ones refused):
 * every request gets 503 UPSTREAM_UNAVAILABLE with Retry-After, never a 500, /readyz says so, and
 * everything works again once it is back.
 */

let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let server: TestServer;

beforeAll(async () => {
  const url = new URL(await createTestDatabase());
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.port = String(proxy.port);
  server = await startTestServer({ DATABASE_URL: url.toString(), JOBS: 'none' });
});
afterAll(async () => {
  await proxy?.restore().catch(() => {});
  await server?.stop();
  await proxy?.stop();
});

describe('a database outage', () => {
  it('answers 503 with Retry-After on public and merchant routes, and recovers', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    expect((await server.api('GET', '/users/me', { token: m.token })).status).toBe(200);
    const reference = Keypair.generate().publicKey.toBase58();

    await proxy.cut();
    // Until the instance notices (its change feed's connection is cut too), a merchant it remembers
    // is answered from memory; from then on nothing is.
    for (let i = 0; i < 100 && server.deps.db.changes.live; i++) await new Promise((r) => setTimeout(r, 20));
    expect(server.deps.db.changes.live).toBe(false);
    const requests = [
      () => server.api('GET', '/users/me', { token: m.token }),
      () => server.api('GET', `/orders/${reference}`, { token: m.token }),
      () =>
        server.api('POST', '/orders', {
          token: m.token,
          body: { network: 'SOLANA', token: 'USDT', amount: '2' },
        }),
      () => server.api('GET', `/pay/${reference}/info`),
      () => server.api('POST', '/auth/login', { body: { email: m.email, password: 'whatever it is' } }),
    ];
    for (const request of requests) {
      const res = await request();
      expect(res.status, res.text).toBe(503);
      expect(res.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    const ready = await server.api('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable', database: 'unreachable' });

    await proxy.restore();
    // Ready again once the change feed is back too (it retries every 2 s), not at the first statement.
    let back = [0, 0];
    for (let i = 0; i < 100 && back.some((status) => status !== 200); i++) {
      back = [
        (await server.api('GET', '/users/me', { token: m.token })).status,
        (await server.api('GET', '/readyz')).status,
      ];
      if (back.some((status) => status !== 200)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(back).toEqual([200, 200]);
  });
});
