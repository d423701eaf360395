import type { AppRoute } from '@ts-rest/core';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, permissionsOf, type RouteAuth } from '../../contract';
import { addMember, expectSignInRefused } from '../support/members';
import { expectErrorBody, newMerchant, startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

/** Members and invitations (issue 38): the routes, their limits, and an attacker's tries. */
let server: TestServer;
let mailing: TestServer;
/** How far the servers' clock is ahead of the real one (an invitation is made to expire). */
let ahead = 0;

beforeAll(async () => {
  const clock = () => new Date(Date.now() + ahead);
  [server, mailing] = await Promise.all([
    startTestServer({ JOBS: 'none', INVITATION_TTL_SECONDS: '3600' }, { clock }),
    // With SMTP the invitation is mailed through the outbox (JOBS none: queued, not sent).
    startTestServer({ JOBS: 'none', SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'Shop <pay@example.com>' }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), mailing?.stop()]);
});

const tokenOf = (link: string) => link.split('/').pop()!;
const transferOwnership = (token: string, memberId: string) =>
  server.api('POST', '/members/transfer-ownership', { token, body: { memberId } });
const NEW_PASSWORD = 'a fine long password';

async function invite(s: TestServer, token: string, email: string, role = 'viewer') {
  return s.api('POST', '/members/invitations', { token, body: { email, role } });
}

async function events(s: TestServer, merchantId: string, type: string) {
  return s.deps.db.sequelize.query<{ body: { data: Record<string, unknown> } }>(
    'SELECT body::jsonb AS body FROM events WHERE merchant_id = :merchantId AND type = :type ORDER BY created_at',
    { replacements: { merchantId, type }, type: QueryTypes.SELECT },
  );
}

describe('invitations', () => {
  it('works once: accept, sign in, a second use is 410; the inviter and the joiner are named in events', async () => {
    const m = await newMerchant(server);
    const email = `New.Cashier-${Date.now()}@example.com`;
    const made = await invite(server, m.token, email, 'cashier');
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ email: email.toLowerCase(), role: 'cashier', status: 'PENDING' });
    expect(made.body.link).toMatch(/^http:\/\/pay\.example\.test\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(made.body.link);
    // The link itself is shown once: the list does not carry it.
    const listed = await server.api('GET', '/members/invitations', { token: m.token });
    expect(listed.body.items[0]).not.toHaveProperty('link');

    const preview = await server.api('GET', `/members/invitations/accept/${token}`);
    expect(preview.body).toMatchObject({
      accountName: 'Test Shop',
      email: email.toLowerCase(),
      role: 'cashier',
    });
    const accepted = await server.api('POST', `/members/invitations/accept/${token}`, {
      body: { name: 'Bia', password: NEW_PASSWORD },
    });
    expect(accepted.status, accepted.text).toBe(201);
    const session = await server.api('GET', '/dashboard/session', { token: accepted.body.token });
    expect(session.body.member).toMatchObject({ role: 'cashier', name: 'Bia' });
    expect(session.body.merchant.id).toBe(m.id);
    // Its own e-mail and password sign it in.
    const login = await server.api('POST', '/auth/login', { body: { email, password: NEW_PASSWORD } });
    expect(login.status).toBe(200);

    expectErrorBody(
      await server.api('POST', `/members/invitations/accept/${token}`, {
        body: { name: 'Again', password: NEW_PASSWORD },
      }),
      410,
      'GONE',
    );
    expectErrorBody(await server.api('GET', `/members/invitations/accept/${token}`), 410, 'GONE');
    const [invited] = await events(server, m.id, 'member.invited');
    expect(invited!.body.data).toMatchObject({ actor: 'member', memberId: m.id, memberEmail: m.email });
    const [joined] = await events(server, m.id, 'member.joined');
    expect(joined!.body.data).toMatchObject({ actor: 'member', memberEmail: email.toLowerCase() });
    const members = await server.api('GET', '/members', { token: m.token });
    expect(members.body.items.map((x: { role: string }) => x.role)).toEqual(['owner', 'cashier']);
  });

  it('two acceptances at once make one member', async () => {
    const m = await newMerchant(server);
    const made = await invite(server, m.token, `race-${Date.now()}@example.com`);
    const token = tokenOf(made.body.link);
    const tries = await Promise.all(
      [1, 2, 3].map(() =>
        server.api('POST', `/members/invitations/accept/${token}`, {
          body: { name: 'R', password: NEW_PASSWORD },
        }),
      ),
    );
    expect(tries.map((t) => t.status).sort()).toEqual([201, 410, 410]);
  });

  it('is 410 once revoked or expired, 404 for a made-up token', async () => {
    const m = await newMerchant(server);
    const revoked = await invite(server, m.token, `revoked-${Date.now()}@example.com`);
    const del = await server.api('DELETE', `/members/invitations/${revoked.body.id}`, { token: m.token });
    expect(del.status, del.text).toBe(204);
    expectErrorBody(
      await server.api('POST', `/members/invitations/accept/${tokenOf(revoked.body.link)}`, {
        body: { name: 'R', password: NEW_PASSWORD },
      }),
      410,
      'GONE',
    );
    const expiring = await invite(server, m.token, `late-${Date.now()}@example.com`);
    ahead = 3601_000;
    try {
      expectErrorBody(
        await server.api('POST', `/members/invitations/accept/${tokenOf(expiring.body.link)}`, {
          body: { name: 'L', password: NEW_PASSWORD },
        }),
        410,
        'GONE',
      );
      const listed = await server.api('GET', '/members/invitations', { token: m.token });
      expect(listed.body.items.map((i: { status: string }) => i.status).sort()).toEqual([
        'EXPIRED',
        'REVOKED',
      ]);
    } finally {
      ahead = 0;
    }
    expectErrorBody(
      await server.api('GET', `/members/invitations/accept/${'x'.repeat(43)}`),
      404,
      'NOT_FOUND',
    );
  });

  it('is 409 for an e-mail that already belongs to an account, at invitation and at acceptance', async () => {
    const a = await newMerchant(server);
    const b = await newMerchant(server);
    expectErrorBody(await invite(server, a.token, b.email.toUpperCase()), 409, 'CONFLICT');
    const email = `twice-${Date.now()}@example.com`;
    const fromA = await invite(server, a.token, email);
    const fromB = await invite(server, b.token, email);
    expect(
      (
        await server.api('POST', `/members/invitations/accept/${tokenOf(fromA.body.link)}`, {
          body: { name: 'T', password: NEW_PASSWORD },
        })
      ).status,
    ).toBe(201);
    expectErrorBody(
      await server.api('POST', `/members/invitations/accept/${tokenOf(fromB.body.link)}`, {
        body: { name: 'T', password: NEW_PASSWORD },
      }),
      409,
      'CONFLICT',
    );
  });

  it('is mailed through the outbox when SMTP is configured, and its link not shown', async () => {
    const m = await newMerchant(mailing);
    const email = `mailed-${Date.now()}@example.com`;
    const made = await invite(mailing, m.token, email, 'finance');
    expect(made.status, made.text).toBe(201);
    expect(made.body).not.toHaveProperty('link');
    const [mail] = await mailing.deps.db.sequelize.query<{ to_address: string; kind: string; text: string }>(
      'SELECT to_address, kind, text FROM email_deliveries WHERE merchant_id = :id',
      { replacements: { id: m.id }, type: QueryTypes.SELECT },
    );
    expect(mail).toMatchObject({ to_address: email, kind: 'invitation' });
    expect(mail!.text).toMatch(/http:\/\/pay\.example\.test\/dashboard\/invite\/[A-Za-z0-9_-]{43}/);
  });
});

describe('roles, removal and ownership', () => {
  it('protects the last owner, and only the owner changes an owner', async () => {
    const m = await newMerchant(server);
    const admin = await addMember(server, m.id, 'admin');
    expectErrorBody(await server.api('DELETE', `/members/${m.id}`, { token: admin.token }), 403, 'FORBIDDEN');
    expectErrorBody(
      await server.api('PATCH', `/members/${admin.id}`, { token: admin.token, body: { role: 'owner' } }),
      403,
      'FORBIDDEN',
    );
    expectErrorBody(await server.api('DELETE', `/members/${m.id}`, { token: m.token }), 409, 'CONFLICT');
    expectErrorBody(
      await server.api('PATCH', `/members/${m.id}`, { token: m.token, body: { role: 'admin' } }),
      409,
      'CONFLICT',
    );
    // An admin manages the others.
    const viewer = await addMember(server, m.id, 'viewer');
    const promoted = await server.api('PATCH', `/members/${viewer.id}`, {
      token: admin.token,
      body: { role: 'finance' },
    });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body.role).toBe('finance');
    // A promotion keeps its tokens; a demotion ends them.
    expect((await server.api('GET', '/users/me', { token: viewer.token })).status).toBe(200);
    await server.api('PATCH', `/members/${viewer.id}`, { token: admin.token, body: { role: 'cashier' } });
    expectErrorBody(await server.api('GET', '/users/me', { token: viewer.token }), 401, 'UNAUTHENTICATED');
    const [changed] = await events(server, m.id, 'member.role_changed');
    expect(changed!.body.data).toMatchObject({ previousRole: 'viewer', memberId: admin.id, actor: 'member' });
  });

  it('transfers the ownership: the old owner becomes an admin and signs in again', async () => {
    const m = await newMerchant(server);
    const dev = await addMember(server, m.id, 'developer');
    expectErrorBody(await transferOwnership(dev.token, dev.id), 403, 'FORBIDDEN');
    const moved = await transferOwnership(m.token, dev.id);
    expect(moved.status, moved.text).toBe(200);
    expect(
      Object.fromEntries(moved.body.items.map((x: { id: string; role: string }) => [x.id, x.role])),
    ).toEqual({
      [m.id]: 'admin',
      [dev.id]: 'owner',
    });
    expectErrorBody(await server.api('GET', '/users/me', { token: m.token }), 401, 'UNAUTHENTICATED');
    // The new owner may now remove the old one.
    expect((await server.api('DELETE', `/members/${m.id}`, { token: dev.token })).status).toBe(204);
    await expectSignInRefused(server, m.email);
  });

  it("an admin of one account can neither change another account's members nor its invitations", async () => {
    const a = await newMerchant(server);
    const b = await newMerchant(server);
    const attacker = await addMember(server, a.id, 'admin');
    const victim = await addMember(server, b.id, 'finance');
    expectErrorBody(
      await server.api('PATCH', `/members/${victim.id}`, { token: attacker.token, body: { role: 'viewer' } }),
      404,
      'NOT_FOUND',
    );
    expectErrorBody(
      await server.api('DELETE', `/members/${victim.id}`, { token: attacker.token }),
      404,
      'NOT_FOUND',
    );
    expectErrorBody(await transferOwnership(a.token, victim.id), 404, 'NOT_FOUND');
    const theirs = await invite(server, b.token, `b-${Date.now()}@example.com`, 'admin');
    expectErrorBody(
      await server.api('DELETE', `/members/invitations/${theirs.body.id}`, { token: attacker.token }),
      404,
      'NOT_FOUND',
    );
    // B's invitation token makes a member of B, never of A, whoever uses it.
    const joined = await server.api('POST', `/members/invitations/accept/${tokenOf(theirs.body.link)}`, {
      headers: { authorization: `Bearer ${attacker.token}` },
      body: { name: 'X', password: NEW_PASSWORD },
    });
    const session = await server.api('GET', '/dashboard/session', { token: joined.body.token });
    expect(session.body.merchant.id).toBe(b.id);
    const listA = await server.api('GET', '/members/invitations', { token: attacker.token });
    expect(listA.body.items).toEqual([]);
  });

  it("removes a member's API keys with it", async () => {
    const m = await newMerchant(server);
    const dev = await addMember(server, m.id, 'developer');
    const key = await server.api('POST', '/users/me/api-keys', {
      token: dev.token,
      body: { name: 'dev key', scopes: ['orders:read'] },
    });
    expect((await server.api('GET', '/users/me/orders', { token: key.body.secret })).status).toBe(200);
    expect((await server.api('DELETE', `/members/${dev.id}`, { token: m.token })).status).toBe(204);
    expectErrorBody(
      await server.api('GET', '/users/me/orders', { token: key.body.secret }),
      401,
      'UNAUTHENTICATED',
    );
    const [removed] = await events(server, m.id, 'member.removed');
    expect(removed!.body.data).toMatchObject({ member: { id: dev.id }, memberId: m.id });
  });
});

describe('orders and who made them', () => {
  it('names the member or the key that made an order; a cashier sees only its own', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const cashier = await addMember(server, m.id, 'cashier');
    const body = { amount: '3', network: 'SOLANA', token: 'USDT' };
    const byOwner = await server.api('POST', '/orders', { token: m.token, body });
    expect(byOwner.body.createdBy).toEqual({ memberId: m.id, email: m.email });
    const byCashier = await server.api('POST', '/orders', { token: cashier.token, body });
    expect(byCashier.status, byCashier.text).toBe(201);
    expect(byCashier.body.createdBy).toEqual({ memberId: cashier.id, email: cashier.email });
    const key = await server.api('POST', '/users/me/api-keys', {
      token: m.token,
      body: { name: 'k', scopes: ['orders:write'] },
    });
    const byKey = await server.api('POST', '/orders', { token: key.body.secret, body });
    expect(byKey.body.createdBy).toEqual({ apiKeyId: key.body.id });

    const mine = await server.api('GET', '/users/me/orders', { token: cashier.token });
    expect(mine.body.items.map((o: { reference: string }) => o.reference)).toEqual([
      byCashier.body.reference,
    ]);
    expect(mine.body.total).toBe(1);
    expect((await server.api('GET', '/users/me/orders', { token: m.token })).body.total).toBe(3);
    expect(
      (await server.api('GET', `/orders/${byCashier.body.reference}`, { token: cashier.token })).status,
    ).toBe(200);
    for (const path of [`/orders/${byOwner.body.reference}`, `/orders/${byKey.body.reference}/audit`])
      expectErrorBody(await server.api('GET', path, { token: cashier.token }), 404, 'NOT_FOUND');
  });

  it('a cashier acts on no order another made, on any route about one order, nor gets it by its Idempotency-Key', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const [first, thief] = [
      await addMember(server, m.id, 'cashier'),
      await addMember(server, m.id, 'cashier'),
    ];
    const body = { amount: '4', network: 'SOLANA', token: 'USDT' };
    const headers = { 'idempotency-key': 'sale-0001' };
    const sale = await server.api('POST', '/orders', { token: first.token, body, headers });
    expect(sale.status, sale.text).toBe(201);

    // Every route about one order that a cashier's role opens, from the contract (the sandbox's is a
    // 404 on an instance that is not one, whoever asks): the other cashier's order is not there.
    const cashier = permissionsOf('cashier');
    const oneOrder: AppRoute[] = [];
    const walk = (node: object) => {
      for (const value of Object.values(node)) {
        const route = value as AppRoute;
        if (typeof route.method !== 'string') walk(route);
        else {
          const auth = route.metadata as RouteAuth;
          if (
            auth.auth === 'merchant' &&
            cashier.has(auth.permission) &&
            route.path.startsWith('/orders/:reference')
          )
            oneOrder.push(route);
        }
      }
    };
    walk(contract);
    expect(oneOrder.length).toBeGreaterThanOrEqual(8);
    for (const route of oneOrder) {
      const path = route.path.replace(':reference', sale.body.reference).replace(':id', '1');
      // A well-formed body where one is taken: the refusal is the order's, not the body's.
      const res = await server.api(route.method, path, {
        token: thief.token,
        body: route.method === 'GET' ? undefined : { txId: '5'.repeat(88) },
      });
      expect(res.status, `${route.method} ${route.path}: ${res.text}`).toBe(404);
      expect(res.text).not.toContain(first.email);
    }
    expect((await server.api('GET', '/users/me/orders', { token: thief.token })).body.total).toBe(0);
    // The key and body the first cashier sent: a 409, never the first cashier's order.
    const replayed = await server.api('POST', '/orders', { token: thief.token, body, headers });
    expectErrorBody(replayed, 409, 'CONFLICT');
    expect(replayed.text).not.toContain(sale.body.reference);
    // Its maker still gets its order back on a retry, and it is still unpaid and unclaimed.
    const retry = await server.api('POST', '/orders', { token: first.token, body, headers });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.reference).toBe(sale.body.reference);
    const seen = await server.api('GET', `/orders/${sale.body.reference}`, { token: first.token });
    expect(seen.body.status).toBe('PENDING');
    const audit = await server.api('GET', `/orders/${sale.body.reference}/audit`, { token: m.token });
    expect(audit.body.items.map((e: { type: string }) => e.type)).toEqual(['order.created']);
  });
});
