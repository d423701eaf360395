import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AppRoute } from '@ts-rest/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { contract, PERMISSIONS, permissionsOf, ROLES, type RouteAuth, type Role } from '../../contract';
import { addMember } from '../support/members';
import { newMerchant, useTestServer } from '../support/test-server';

/**
 * Every merchant route of the contract × every role, the expectation read from the one table
 * (contract/permissions.ts): a role holding the route's permission is let through (whatever the
 * route then answers to a made-up request, never 401 or 403), any other is refused 403 naming the
 * permission. And the routes the running server mounts are those of the contract, each with its
 * permission: a route mounted beside the contract, or declared without a permission, fails here.
 */
const server = useTestServer({ JOBS: 'none' });

type MerchantRoute = { name: string; route: AppRoute; auth: Extract<RouteAuth, { auth: 'merchant' }> };

function contractRoutes(): { all: AppRoute[]; merchant: MerchantRoute[] } {
  const all: AppRoute[] = [];
  const merchant: MerchantRoute[] = [];
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const v = value as AppRoute & Record<string, unknown>;
      if (typeof v.method === 'string' && typeof v.path === 'string') {
        all.push(v);
        const auth = v.metadata as RouteAuth | undefined;
        if (auth?.auth === 'merchant') merchant.push({ name: `${prefix}${key}`, route: v, auth });
      } else walk(v, `${prefix}${key}.`);
    }
  };
  walk(contract as unknown as Record<string, unknown>, '');
  return { all, merchant };
}

type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };

/**
 * What the running app mounts: `METHOD path` of every route layer, in the app's router and the
 * routers it uses (ts-rest mounts one route per contract route on the app itself).
 */
function mountedRoutes(http: Server): string[] {
  const app = http.listeners('request')[0] as unknown as { router: { stack: Layer[] } };
  const walk = (stack: Layer[]): string[] =>
    stack.flatMap((layer) =>
      layer.route
        ? Object.keys(layer.route.methods)
            .filter((m) => m !== '_all')
            .map((m) => `${m.toUpperCase()} ${layer.route!.path}`)
        : layer.handle?.stack
          ? walk(layer.handle.stack)
          : [],
    );
  return walk(app.router.stack);
}

/** A cheap request for the route: made-up ids, an empty body (a 400 or 404 proves "not refused"). */
function requestFor(route: AppRoute, reference: string) {
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'reference') return reference;
    if (name === 'id' && route.path.startsWith('/orders/')) return '1';
    if (name === 'id' && route.path.startsWith('/events/')) return `evt_${'0'.repeat(32)}`;
    if (name === 'token') return 'x'.repeat(43);
    return randomUUID();
  });
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
  return { method: route.method, path, body };
}

const { all, merchant } = contractRoutes();

describe('the permission table', () => {
  it('gives every merchant route a permission of the table, and the server mounts exactly the contract', () => {
    for (const { name, auth } of merchant)
      expect(PERMISSIONS as readonly string[], `${name} names no permission of the table`).toContain(
        auth.permission,
      );
    const mounted = mountedRoutes(server.server);
    const declared = new Set(all.map((r) => `${r.method} ${r.path}`));
    // Every contract route is mounted ...
    for (const route of declared) expect(mounted, `${route} is not mounted`).toContain(route);
    // ... and nothing is mounted beside the contract but these public pages and assets (the
    // dashboard's files are served by a static handler, not a route).
    expect(mounted.filter((r) => !declared.has(r)).sort()).toEqual(PUBLIC_PAGES);
  });
});

/** Pages, assets and the customer's subscription page: public by nature, outside the contract. */
const PUBLIC_PAGES = [
  'GET /',
  'GET /checkout/assets/checkout.css',
  'GET /checkout/assets/checkout.js',
  'GET /docs',
  'GET /docs/init.js',
  'GET /openapi.json',
  'GET /subscriptions/manage/:token',
  'POST /subscriptions/manage/:token',
];

describe('every merchant route × every role', () => {
  const tokens = {} as Record<Role, string>;
  let reference = '';
  beforeAll(async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    tokens.owner = m.token;
    for (const role of ROLES.filter((r) => r !== 'owner'))
      tokens[role] = (await addMember(server, m.id, role)).token;
    const order = await server.api('POST', '/orders', {
      token: m.token,
      body: { amount: '5', network: 'SOLANA', token: 'USDT' },
    });
    expect(order.status, order.text).toBe(201);
    reference = order.body.reference;
  });

  // The sandbox's routes are a 404 on this (not a sandbox) instance, before any credential.
  const routes = merchant.filter((r) => !r.route.path.startsWith('/sandbox'));

  for (const role of ROLES)
    it(`${role}: opens exactly the routes whose permission the role has`, async () => {
      const held = permissionsOf(role);
      for (const { name, route, auth } of routes) {
        const req = requestFor(route, reference);
        const res = await server.api(req.method, req.path, { token: tokens[role], body: req.body });
        const label = `${role} on ${name} (${route.method} ${route.path}, needs ${auth.permission}): ${res.status} ${res.text}`;
        // Only an API key opens these (its maker's permission is checked as here: api-keys.test.ts).
        if (auth.apiKeyOnly) {
          expect(res.status, label).toBe(403);
          expect(res.body.error.message, label).toContain('Only an API key');
        } else if (held.has(auth.permission)) expect([401, 403], label).not.toContain(res.status);
        else {
          expect(res.status, label).toBe(403);
          expect(res.body.error.code, label).toBe('FORBIDDEN');
          expect(res.body.error.message, label).toContain(`needs ${auth.permission}`);
        }
      }
    });

  // Routes whose body fields need permissions of their own (PATCH /users/me): each field alone.
  const fielded = routes.filter((r) => r.auth.fieldPermissions);
  it('lists the routes whose fields need their own permission', () => {
    expect(fielded.map((r) => r.name)).toEqual(['profile.update']);
  });
  for (const role of ROLES)
    it(`${role}: may send exactly the fields whose permission the role has`, async () => {
      const held = permissionsOf(role);
      for (const { name, route, auth } of fielded)
        for (const [field, permission] of Object.entries(auth.fieldPermissions!)) {
          // null clears a field (or is a 400 where it may not): either way, not refused.
          const { method, path } = requestFor(route, reference);
          const res = await server.api(method, path, { token: tokens[role], body: { [field]: null } });
          const label = `${role} on ${name} sending ${field} (needs ${permission}): ${res.status} ${res.text}`;
          if (held.has(permission)) expect([401, 403], label).not.toContain(res.status);
          else {
            expect(res.status, label).toBe(403);
            expect(res.body.error.message, label).toContain(`needs ${permission}`);
          }
        }
    });

  it('lets a developer set the webhook URL, never the name beside it', async () => {
    const url = 'https://hooks.example.com/stablepay';
    const set = await server.api('PATCH', '/users/me', {
      token: tokens.developer,
      body: { webhook_url: url },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.webhook_url).toBe(url);
    // One field it may not change refuses the whole request: nothing of it is written.
    const mixed = await server.api('PATCH', '/users/me', {
      token: tokens.developer,
      body: { webhook_url: null, full_name: 'Renamed by a developer' },
    });
    expect(mixed.status, mixed.text).toBe(403);
    expect(mixed.body.error.message).toContain('needs account:write');
    const now = await server.api('GET', '/users/me', { token: tokens.owner });
    expect(now.body).toMatchObject({ webhook_url: url });
    expect(now.body.full_name).not.toBe('Renamed by a developer');
  });
});
