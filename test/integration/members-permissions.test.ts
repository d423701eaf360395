import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsOf } from '../../contract';
import { addMember, expectSignInRefused } from '../support/members';
import {
  expectErrorBody,
  newApiKey,
  newMerchant,
  requestSolanaOrder,
  startTestServer,
  TEST_PASSWORD,
} from '../support/test-server';
import type { ApiResponse, TestServer } from '../support/test-server';

/**
 * The one permission table (contract/permissions.ts) at work: a member's role decides what its
 * token, session and API keys open, and a change to the member counts on every instance at its
 * next request.
 */
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer({ JOBS: 'none' }), startTestServer({ JOBS: 'none' })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const refundBody = { amount: '1', reason: 'test' };

/** Refused with 403, the message naming the permission the caller lacks. */
function expectRefusedLacking(res: ApiResponse<{ error: { message: string } }>, permission: string) {
  expectErrorBody(res, 403, 'FORBIDDEN');
  expect(res.body.error.message).toContain(`needs ${permission}`);
}

describe('roles and permissions', () => {
  it('refuses a route the role lacks with 403 naming the permission, and says who signed in', async () => {
    const m = await newMerchant(a);
    const viewer = await addMember(a, m.id, 'viewer');
    const refused = await a.api('POST', '/orders/11111111111111111111111111111111/refunds', {
      token: viewer.token,
      body: refundBody,
    });
    expectRefusedLacking(refused, 'refunds:write');
    // What the role has, it may use: the account's profile is the account's, whoever reads it.
    const me = await a.api('GET', '/users/me', { token: viewer.token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.email).toBe(m.email);
    const session = await a.api('GET', '/dashboard/session', { token: viewer.token });
    expect(session.body.member).toMatchObject({ id: viewer.id, email: viewer.email, role: 'viewer' });
    expect(session.body.merchant.id).toBe(m.id);
    expect(new Set(session.body.permissions)).toEqual(permissionsOf('viewer'));
    expectErrorBody(await requestSolanaOrder(a, viewer.token), 403, 'FORBIDDEN');
  });

  it('a removed member is refused at its next request on another instance, token and session alike', async () => {
    const m = await newMerchant(a);
    const finance = await addMember(a, m.id, 'finance');
    const signIn = await b.api('POST', '/dashboard/session', {
      body: { email: finance.email, password: TEST_PASSWORD },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const cookie = /stablepay_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')![1]!;
    // Both instances have it remembered.
    expect((await b.api('GET', '/users/me', { token: finance.token })).status).toBe(200);
    expect(
      (await b.api('GET', '/dashboard/session', { headers: { cookie: `stablepay_session=${cookie}` } }))
        .status,
    ).toBe(200);
    await a.deps.db.sequelize.query('UPDATE members SET removed_at = now() WHERE id = :id', {
      replacements: { id: finance.id },
    });
    await b.deps.db.changes.sync();
    expectErrorBody(await b.api('GET', '/users/me', { token: finance.token }), 401, 'UNAUTHENTICATED');
    expectErrorBody(
      await b.api('GET', '/dashboard/session', { headers: { cookie: `stablepay_session=${cookie}` } }),
      401,
      'UNAUTHENTICATED',
    );
    // Nor can it sign in again.
    await expectSignInRefused(b, finance.email);
  });

  it('a demoted member loses the permission on every instance at once, its API keys with it', async () => {
    const m = await newMerchant(a);
    const admin = await addMember(a, m.id, 'admin');
    const key = await newApiKey(a.api, admin.token, ['account:write']);
    const rename = (token: string) => b.api('PATCH', '/users/me', { token, body: { full_name: 'By admin' } });
    expect((await rename(admin.token)).status).toBe(200);
    expect((await rename(key)).status).toBe(200);
    await a.deps.db.sequelize.query("UPDATE members SET role = 'viewer' WHERE id = :id", {
      replacements: { id: admin.id },
    });
    await b.deps.db.changes.sync();
    for (const token of [admin.token, key]) {
      expectRefusedLacking(await rename(token), 'account:write');
    }
  });

  it("a key is made only within its maker's permissions", async () => {
    const m = await newMerchant(a);
    const developer = await addMember(a, m.id, 'developer');
    const refused = await a.api('POST', '/users/me/api-keys', {
      token: developer.token,
      body: { name: 'too much', scopes: ['orders:read', 'refunds:write'] },
    });
    expectErrorBody(refused, 403, 'FORBIDDEN');
    expect(refused.body.error.message).toContain('refunds:write');
    // Within them it is made, and it is the developer's.
    const key = await newApiKey(a.api, developer.token, ['orders:read', 'account:write']);
    expect((await a.api('GET', '/users/me/orders', { token: key })).status).toBe(200);
    // A developer's account:write key opens the webhook routes (webhooks:write), not the profile.
    expectRefusedLacking(
      await a.api('PATCH', '/users/me', { token: key, body: { full_name: 'x' } }),
      'account:write',
    );
    // A cashier may not manage keys at all.
    const cashier = await addMember(a, m.id, 'cashier');
    expectRefusedLacking(await a.api('GET', '/users/me/api-keys', { token: cashier.token }), 'keys:write');
  });

  it("a member's own password change ends its own tokens only", async () => {
    const m = await newMerchant(a);
    const viewer = await addMember(a, m.id, 'viewer');
    const changed = await a.api('POST', '/users/me/password', {
      token: viewer.token,
      body: { current_password: TEST_PASSWORD, new_password: 'another long password' },
    });
    expect(changed.status, changed.text).toBe(204);
    expectErrorBody(await a.api('GET', '/users/me', { token: viewer.token }), 401, 'UNAUTHENTICATED');
    expect((await a.api('GET', '/users/me', { token: m.token })).status).toBe(200);
    const login = await a.api('POST', '/auth/login', {
      body: { email: viewer.email, password: 'another long password' },
    });
    expect(login.status).toBe(200);
    // The owner's password is untouched.
    expect(
      (await a.api('POST', '/auth/login', { body: { email: m.email, password: TEST_PASSWORD } })).status,
    ).toBe(200);
  });
});
