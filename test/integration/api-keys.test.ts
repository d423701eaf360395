import { createHash, randomUUID } from 'node:crypto';
import type { AppRoute } from '@ts-rest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_SCOPES, contract, type ApiKeyScope, type RouteAuth } from '../../contract';
import { expectErrorBody, newMerchant, startTestServer, TEST_PASSWORD } from '../support/test-server';
import type { TestServer } from '../support/test-server';

let server: TestServer;
let other: TestServer;
let now = new Date('2026-11-24T12:00:00Z');
const clock = () => new Date(now);

beforeAll(async () => {
  // Two instances on one database, each with its own caches and change feed.
  server = await startTestServer({ LOGIN_RATE_LIMIT_MAX: '1000' }, { clock });
  other = await startTestServer({ LOGIN_RATE_LIMIT_MAX: '1000' });
});
afterAll(async () => {
  await server?.stop();
  await other?.stop();
});

type Merchant = Awaited<ReturnType<typeof newMerchant>>;

async function createKey(m: Merchant, scopes: ApiKeyScope[], name = 'integration') {
  const res = await server.api('POST', '/users/me/api-keys', { token: m.token, body: { name, scopes } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; secret: string; last4: string; scopes: string[]; name: string };
}

/** Every merchant route of the contract, with what its auth metadata says. */
function merchantRoutes(): {
  name: string;
  route: AppRoute;
  scope: ApiKeyScope | null;
  apiKeyOnly: boolean;
}[] {
  const out: { name: string; route: AppRoute; scope: ApiKeyScope | null; apiKeyOnly: boolean }[] = [];
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const v = value as AppRoute & Record<string, unknown>;
      if (typeof v.method === 'string' && typeof v.path === 'string') {
        const auth = v.metadata as RouteAuth | undefined;
        // The sandbox's routes are 404 on this (not a sandbox) instance: their scopes are checked
        // in test/integration/sandbox.test.ts.
        if (auth?.auth === 'merchant' && !v.path.startsWith('/sandbox'))
          out.push({ name: `${prefix}${key}`, route: v, scope: auth.scope, apiKeyOnly: !!auth.apiKeyOnly });
      } else walk(v, `${prefix}${key}.`);
    }
  };
  walk(contract as unknown as Record<string, unknown>, '');
  return out;
}

/** A request for the route: real ids where they exist, made-up ones elsewhere (a 404 is fine). */
function requestFor(route: AppRoute, ids: { reference: string }) {
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'reference') return ids.reference;
    if (name === 'id' && route.path.startsWith('/orders/')) return '1';
    if (name === 'id' && route.path.startsWith('/events/')) return `evt_${'0'.repeat(32)}`;
    return randomUUID();
  });
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
  return { method: route.method, path, body };
}

describe('API keys', () => {
  it('shows the secret once, stores only its hash, lists without it', async () => {
    const m = await newMerchant(server);
    const key = await createKey(m, ['orders:read', 'account:read'], 'shop backend');
    expect(key.secret).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(key.last4).toBe(key.secret.slice(-4));
    expect(key.scopes).toEqual(['orders:read', 'account:read']);

    const [rows] = (await server.deps.db.sequelize.query(
      `SELECT * FROM api_keys WHERE id = '${key.id}'`,
    )) as [Record<string, unknown>[], unknown];
    expect(JSON.stringify(rows)).not.toContain(key.secret.slice(3));
    expect(rows[0]!.secret_hash).toBe(createHash('sha256').update(key.secret).digest('hex'));

    const list = await server.api('GET', '/users/me/api-keys', { token: m.token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      {
        id: key.id,
        name: 'shop backend',
        scopes: ['orders:read', 'account:read'],
        last4: key.last4,
        createdAt: now.toISOString(),
        lastUsedAt: null,
      },
    ]);
    expect(list.text).not.toContain(key.secret);
  });

  it('refuses bad bodies', async () => {
    const m = await newMerchant(server);
    for (const body of [
      {},
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['orders:delete'] },
      { name: 'x', scopes: ['orders:read', 'orders:read'] },
      { name: '', scopes: ['orders:read'] },
      { name: 'x'.repeat(101), scopes: ['orders:read'] },
      { name: 'x', scopes: ['orders:read'], extra: true },
    ]) {
      const res = await server.api('POST', '/users/me/api-keys', { token: m.token, body });
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
    }
    expectErrorBody(
      await server.api('DELETE', '/users/me/api-keys/nope', { token: m.token }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('each scope opens exactly the routes that name it; key routes and the password need the login token', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await server.api('POST', '/orders', {
      token: m.token,
      body: { amount: '5', network: 'SOLANA', token: 'USDT' },
    });
    expect(order.status).toBe(201);
    const ids = { reference: order.body.reference as string };
    const routes = merchantRoutes();
    // Every route of the contract is in the table, and the table names every scope.
    expect(routes.length).toBeGreaterThanOrEqual(22);
    expect(new Set(routes.map((r) => r.scope))).toEqual(new Set([...API_KEY_SCOPES, null]));

    const keys = Object.fromEntries(
      await Promise.all(API_KEY_SCOPES.map(async (s) => [s, (await createKey(m, [s])).secret] as const)),
    ) as Record<ApiKeyScope, string>;
    const checked: string[] = [];
    for (const { name, route, scope, apiKeyOnly } of routes) {
      for (const held of API_KEY_SCOPES) {
        const req = requestFor(route, ids);
        const res = await server.api(req.method, req.path, { token: keys[held], body: req.body });
        const label = `${name} (${route.method} ${route.path}) with ${held}: ${res.status} ${res.text}`;
        if (scope === held) {
          expect([401, 403], label).not.toContain(res.status);
          checked.push(name);
        } else {
          expect(res.status, label).toBe(403);
          expect(res.body.error.code, label).toBe('FORBIDDEN');
          expect(res.body.error.message, label).toContain(scope ?? 'login token');
        }
      }
      // The login token opens every route but those only an API key opens (x402's facilitator).
      const req = requestFor(route, ids);
      const res = await server.api(req.method, req.path, { token: m.token, body: req.body });
      if (apiKeyOnly) expectErrorBody(res, 403, 'FORBIDDEN');
      else expect([401, 403], `${name} with the login token: ${res.text}`).not.toContain(res.status);
    }
    expect(new Set(checked).size).toBe(routes.filter((r) => r.scope !== null).length);
  });

  it('a key acts like the merchant within its scopes, and the audit names it', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const writer = await createKey(m, ['orders:write', 'orders:read'], 'checkout backend');
    const created = await server.api('POST', '/orders', {
      token: writer.secret,
      body: { amount: '12.5', network: 'SOLANA', token: 'USDT' },
    });
    expect(created.status).toBe(201);
    const read = await server.api('GET', `/orders/${created.body.reference}`, { token: writer.secret });
    expect(read.status).toBe(200);
    expect(read.body.amount).toBe('12.500000');
    // The same order through the login token: one merchant.
    const list = await server.api('GET', '/users/me/orders', { token: m.token });
    expect(list.body.items.map((o: { reference: string }) => o.reference)).toContain(created.body.reference);

    const audit = await server.api('GET', `/orders/${created.body.reference}/audit`, { token: m.token });
    const entry = audit.body.items.find((e: { type: string }) => e.type === 'order.created');
    expect(entry.actor).toBe('api_key');
    expect(entry.data).toMatchObject({ apiKeyId: writer.id, apiKeyName: 'checkout backend' });
    expect(entry.data).not.toHaveProperty('memberId');

    // An order created with the login token names no key.
    const byLogin = await server.api('POST', '/orders', {
      token: m.token,
      body: { amount: '3', network: 'SOLANA', token: 'USDT' },
    });
    const loginAudit = await server.api('GET', `/orders/${byLogin.body.reference}/audit`, { token: m.token });
    expect(loginAudit.body.items[0]).toMatchObject({ actor: 'member', data: { memberEmail: m.email } });
    expect(loginAudit.body.items[0].data.apiKeyId).toBeUndefined();

    // Another merchant's order stays invisible to the key.
    const stranger = await newMerchant(server, { wallets: ['SOLANA'] });
    const theirs = await server.api('POST', '/orders', {
      token: stranger.token,
      body: { amount: '1', network: 'SOLANA', token: 'USDT' },
    });
    expectErrorBody(
      await server.api('GET', `/orders/${theirs.body.reference}`, { token: writer.secret }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses unknown, malformed and revoked keys with 401; revocation is seen at once by another instance', async () => {
    const m = await newMerchant(server);
    const key = await createKey(m, ['account:read']);
    // Both instances have used (and remembered) the key.
    expect((await server.api('GET', '/users/me', { token: key.secret })).status).toBe(200);
    expect((await other.api('GET', '/users/me', { token: key.secret })).status).toBe(200);

    const revoked = await server.api('DELETE', `/users/me/api-keys/${key.id}`, { token: m.token });
    expect(revoked.status).toBe(204);
    expectErrorBody(await other.api('GET', '/users/me', { token: key.secret }), 401, 'UNAUTHENTICATED');
    expectErrorBody(await server.api('GET', '/users/me', { token: key.secret }), 401, 'UNAUTHENTICATED');
    expect((await server.api('GET', '/users/me/api-keys', { token: m.token })).body.items).toEqual([]);
    // Revoking again, or another merchant's key: 404.
    expectErrorBody(
      await server.api('DELETE', `/users/me/api-keys/${key.id}`, { token: m.token }),
      404,
      'NOT_FOUND',
    );
    const stranger = await newMerchant(server);
    const theirs = await createKey(stranger, ['account:read']);
    expectErrorBody(
      await server.api('DELETE', `/users/me/api-keys/${theirs.id}`, { token: m.token }),
      404,
      'NOT_FOUND',
    );
    expect((await other.api('GET', '/users/me', { token: theirs.secret })).status).toBe(200);

    for (const bad of [`sk_${'A'.repeat(43)}`, 'sk_short', `${key.secret}x`]) {
      const res = await other.api('GET', '/users/me', { token: bad });
      expectErrorBody(res, 401, 'UNAUTHENTICATED');
    }
  });

  it('keys outlive a password change; old login tokens do not', async () => {
    const m = await newMerchant(server);
    const key = await createKey(m, ['account:read']);
    const changed = await server.api('POST', '/users/me/password', {
      token: m.token,
      body: { current_password: TEST_PASSWORD, new_password: 'another long password' },
    });
    expect(changed.status).toBe(204);
    expectErrorBody(await server.api('GET', '/users/me', { token: m.token }), 401, 'UNAUTHENTICATED');
    const me = await other.api('GET', '/users/me', { token: key.secret });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(m.email);
  });

  it('writes lastUsedAt at most once a minute per key', async () => {
    const m = await newMerchant(server);
    const key = await createKey(m, ['account:read']);
    const lastUsed = async () => {
      const [rows] = (await server.deps.db.sequelize.query(
        `SELECT last_used_at FROM api_keys WHERE id = '${key.id}'`,
      )) as [{ last_used_at: Date | null }[], unknown];
      return rows[0]!.last_used_at?.toISOString() ?? null;
    };
    const settle = async (expected: string | null) => {
      for (let i = 0; i < 100 && (await lastUsed()) !== expected; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(await lastUsed()).toBe(expected);
    };
    const first = now.toISOString();
    await server.api('GET', '/users/me', { token: key.secret });
    await settle(first);

    now = new Date(now.getTime() + 30_000);
    await server.api('GET', '/users/me', { token: key.secret });
    await new Promise((r) => setTimeout(r, 200));
    expect(await lastUsed()).toBe(first);

    now = new Date(now.getTime() + 31_000);
    await server.api('GET', '/users/me', { token: key.secret });
    await settle(now.toISOString());
    const list = await server.api('GET', '/users/me/api-keys', { token: m.token });
    expect(list.body.items[0].lastUsedAt).toBe(now.toISOString());
  });

  it('limits the keys in use per merchant', async () => {
    const m = await newMerchant(server);
    const { MAX_API_KEYS } = await import('../../contract');
    await Promise.all(Array.from({ length: MAX_API_KEYS }, (_, i) => createKey(m, ['orders:read'], `k${i}`)));
    const over = await server.api('POST', '/users/me/api-keys', {
      token: m.token,
      body: { name: 'one too many', scopes: ['orders:read'] },
    });
    expectErrorBody(over, 409, 'CONFLICT');
  });
});
