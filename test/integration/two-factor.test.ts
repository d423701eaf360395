import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../support/members';
import {
  TEST_PASSWORD,
  expectErrorBody,
  newMerchant,
  startTestServer,
  type TestServer,
} from '../support/test-server';

/**
 * Two-factor sign-in (issue 38): enrolment, the two-step login on the API and the dashboard, codes
 * accepted once and counted like passwords, the owner's requirement. The service runs on a fixed
 * clock the tests move, so every code is known.
 */
const STEP_MS = 30_000;
let now = Math.floor(Date.now() / STEP_MS) * STEP_MS + 1000;
const nextStep = () => (now += STEP_MS);
// Long enough for the refused attempts below on a loaded machine (the wait after it is the test's length).
const WINDOW_SECONDS = 15;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(
    { JOBS: 'none', LOGIN_RATE_LIMIT_MAX: '3', LOGIN_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) },
    { clock: () => new Date(now) },
  );
});
afterAll(() => server?.stop());

const codeAt = (secret: string, at = now) => generate({ secret, epoch: Math.floor(at / 1000) });
const login = (email: string, password = TEST_PASSWORD) =>
  server.api('POST', '/auth/login', { body: { email, password } });
/** POST /auth/two-factor/<what> with a code, as the holder of `token`. */
const withCode = (what: 'confirm' | 'disable', token: string, code: string) =>
  server.api('POST', `/auth/two-factor/${what}`, { token, body: { code } });
const loginMfa = (mfaToken: string, code: string) =>
  server.api('POST', '/auth/login/mfa', { body: { mfaToken, code } });
const mfaToken = async (email: string): Promise<string> => {
  const res = await login(email);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
  return res.body.mfaToken;
};

/** Enrols the holder of `token` (login token or setup token): its secret and recovery codes. */
async function enrol(token: string) {
  const enrolled = await server.api('POST', '/auth/two-factor/enroll', { token });
  expect(enrolled.status, enrolled.text).toBe(200);
  const { secret, otpauthUrl } = enrolled.body as { secret: string; otpauthUrl: string };
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/stablepay:/);
  expect(new URL(otpauthUrl).searchParams.get('secret')).toBe(secret);
  const confirmed = await withCode('confirm', token, await codeAt(secret));
  expect(confirmed.status, confirmed.text).toBe(200);
  nextStep(); // the confirming code is used
  return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

describe('two-factor sign-in', () => {
  it('enrols with a first code, then login asks for a code and gives the token for it', async () => {
    const m = await newMerchant(server);
    const started = await server.api('POST', '/auth/two-factor/enroll', { token: m.token });
    const secret = started.body.secret as string;
    // Stored sealed, never in clear.
    const [rows] = (await server.deps.db.sequelize.query(
      'SELECT two_factor_pending FROM members WHERE id = $id',
      { bind: { id: m.id } },
    )) as [{ two_factor_pending: string }[], unknown];
    expect(rows[0]!.two_factor_pending).not.toContain(secret);
    expect(server.deps.secrets.open(rows[0]!.two_factor_pending)).toBe(secret);
    // Not on until a code confirms it: login still gives the token.
    expect((await login(m.email)).body.token).toEqual(expect.any(String));
    expectErrorBody(await withCode('confirm', m.token, '000000'), 401, 'UNAUTHENTICATED');
    const confirmed = await withCode('confirm', m.token, await codeAt(secret));
    expect(confirmed.status, confirmed.text).toBe(200);
    const codes = confirmed.body.recoveryCodes as string[];
    expect(new Set(codes).size).toBe(10);
    const [hashes] = (await server.deps.db.sequelize.query(
      'SELECT code_hash FROM member_recovery_codes WHERE member_id = $id',
      { bind: { id: m.id } },
    )) as [{ code_hash: string }[], unknown];
    expect(hashes).toHaveLength(10);
    expect(hashes.map((h) => h.code_hash)).not.toContain(codes[0]);
    const status = await server.api('GET', '/auth/two-factor', { token: m.token });
    expect(status.body).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    nextStep();

    // The password alone no longer gives a token.
    const first = await login(m.email);
    expect(first.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    expect(first.body.token).toBeUndefined();
    expectErrorBody(await loginMfa(first.body.mfaToken, '123456'), 401, 'UNAUTHENTICATED');
    const second = await loginMfa(first.body.mfaToken, await codeAt(secret));
    expect(second.status, second.text).toBe(200);
    expect((await server.api('GET', '/users/me', { token: second.body.token })).status).toBe(200);
    // A wrong password is still a plain 401, whatever the code.
    expectErrorBody(await login(m.email, 'not the password'), 401, 'UNAUTHENTICATED');
  });

  it('accepts a TOTP code once: replayed (same step, or an older one) it is refused', async () => {
    const m = await newMerchant(server);
    const { secret } = await enrol(m.token);
    const code = await codeAt(secret);
    expect((await loginMfa(await mfaToken(m.email), code)).status).toBe(200);
    const replayed = await loginMfa(await mfaToken(m.email), code);
    expectErrorBody(replayed, 401, 'UNAUTHENTICATED');
    // Two at once with the same code: one token, not two.
    nextStep();
    const fresh = await codeAt(secret);
    const both = await Promise.all([
      loginMfa(await mfaToken(m.email), fresh),
      loginMfa(await mfaToken(m.email), fresh),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    // The step before the last used one (still within the clock tolerance) is refused too.
    expectErrorBody(
      await loginMfa(await mfaToken(m.email), await codeAt(secret, now - STEP_MS)),
      401,
      'UNAUTHENTICATED',
    );
    // Three refused codes are this file's limit (LOGIN_RATE_LIMIT_MAX 3): even the next step's
    // right code now waits for the window, as a password does.
    nextStep();
    expectErrorBody(await loginMfa(await mfaToken(m.email), await codeAt(secret)), 429, 'RATE_LIMITED');
  });

  it('takes a recovery code once (any case, without the dash), then refuses it', async () => {
    const m = await newMerchant(server);
    const { recoveryCodes } = await enrol(m.token);
    const code = recoveryCodes[3]!;
    const used = await loginMfa(await mfaToken(m.email), code.replace('-', '').toLowerCase());
    expect(used.status, used.text).toBe(200);
    expectErrorBody(await loginMfa(await mfaToken(m.email), code), 401, 'UNAUTHENTICATED');
    const status = await server.api('GET', '/auth/two-factor', { token: used.body.token });
    expect(status.body.recoveryCodesLeft).toBe(9);
    // Another one still works.
    expect((await loginMfa(await mfaToken(m.email), recoveryCodes[4]!)).status).toBe(200);
  });

  it('an mfaToken is good once, for 5 minutes, and cannot be made up', async () => {
    const m = await newMerchant(server);
    const { secret } = await enrol(m.token);
    const token = await mfaToken(m.email);
    expect((await loginMfa(token, await codeAt(secret))).status).toBe(200);
    nextStep();
    expectErrorBody(await loginMfa(token, await codeAt(secret)), 401, 'UNAUTHENTICATED');

    const old = await mfaToken(m.email);
    now += 301_000;
    expectErrorBody(await loginMfa(old, await codeAt(secret)), 401, 'UNAUTHENTICATED');
    nextStep();
    const forged = randomBytes(32).toString('base64url');
    expectErrorBody(await loginMfa(forged, await codeAt(secret)), 401, 'UNAUTHENTICATED');
    // A dashboard sign-in's mfaToken is not a login's, nor the other way round.
    const forSession = await server.api('POST', '/dashboard/session', {
      body: { email: m.email, password: TEST_PASSWORD },
    });
    expectErrorBody(await loginMfa(forSession.body.mfaToken, await codeAt(secret)), 401, 'UNAUTHENTICATED');
    // A password change since the first step ends it.
    const pending = await mfaToken(m.email);
    await server.api('POST', '/users/me/password', {
      token: (await loginMfa(await mfaToken(m.email), await codeAt(secret))).body.token,
      body: { current_password: TEST_PASSWORD, new_password: 'another long password' },
    });
    nextStep();
    expectErrorBody(await loginMfa(pending, await codeAt(secret)), 401, 'UNAUTHENTICATED');
  });

  it('limits wrong codes per member like passwords: 429, and a correct code is refused until the window ends', async () => {
    const m = await newMerchant(server);
    const { secret } = await enrol(m.token);
    // The first steps before the window starts: the codes come quickly one after the other.
    const sessionToken = (
      await server.api('POST', '/dashboard/session', { body: { email: m.email, password: TEST_PASSWORD } })
    ).body.mfaToken as string;
    const tokens = [];
    for (let i = 0; i < 5; i++) tokens.push(await mfaToken(m.email));
    for (let i = 0; i < 3; i++)
      expectErrorBody(await loginMfa(tokens[i]!, `00000${i}`), 401, 'UNAUTHENTICATED');
    const limited = await loginMfa(tokens[3]!, await codeAt(secret));
    expectErrorBody(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Per member, whatever the mfaToken: a fresh one does not reset it, nor does the dashboard.
    expectErrorBody(
      await server.api('POST', '/dashboard/session/mfa', {
        body: { mfaToken: sessionToken, code: await codeAt(secret) },
      }),
      429,
      'RATE_LIMITED',
    );
    await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 200));
    expect((await loginMfa(tokens[4]!, await codeAt(secret))).status).toBe(200);
  });

  it("the dashboard's sign-in takes the same two steps: no cookie before the code", async () => {
    const m = await newMerchant(server);
    const { secret } = await enrol(m.token);
    const first = await server.api('POST', '/dashboard/session', {
      body: { email: m.email, password: TEST_PASSWORD },
    });
    expect(first.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    expect(first.headers.get('set-cookie')).toBeNull();
    // A login's mfaToken does not open a session.
    expectErrorBody(
      await server.api('POST', '/dashboard/session/mfa', {
        body: { mfaToken: await mfaToken(m.email), code: await codeAt(secret) },
      }),
      401,
      'UNAUTHENTICATED',
    );
    const second = await server.api('POST', '/dashboard/session/mfa', {
      body: { mfaToken: first.body.mfaToken, code: await codeAt(secret) },
    });
    expect(second.status, second.text).toBe(200);
    const cookie = /stablepay_session=([^;]+)/.exec(second.headers.get('set-cookie') ?? '')![1]!;
    const session = await server.api('GET', '/dashboard/session', {
      headers: { cookie: `stablepay_session=${cookie}` },
    });
    expect(session.status).toBe(200);
    expect(session.body.member.email).toBe(m.email);
  });

  it('disables with a code; the password alone signs in again', async () => {
    const m = await newMerchant(server);
    const { secret } = await enrol(m.token);
    expectErrorBody(await withCode('disable', m.token, '999999'), 401, 'UNAUTHENTICATED');
    const off = await withCode('disable', m.token, await codeAt(secret));
    expect(off.status, off.text).toBe(204);
    expect((await login(m.email)).body.token).toEqual(expect.any(String));
  });

  it('requireTwoFactor (owner only) sends a member without it to enrol and stops its older tokens', async () => {
    const m = await newMerchant(server);
    const admin = await addMember(server, m.id, 'admin');
    const viewer = await addMember(server, m.id, 'viewer');
    const require = (token: string) =>
      server.api('PATCH', '/account', { token, body: { requireTwoFactor: true } });
    const byAdmin = await require(admin.token);
    expectErrorBody(byAdmin, 403, 'FORBIDDEN');
    expect(byAdmin.body.error.message).toContain('needs account:security');
    // The owner turns on its own first.
    expectErrorBody(await require(m.token), 409, 'CONFLICT');
    const { secret } = await enrol(m.token);
    const on = await require(m.token);
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ requireTwoFactor: true });
    await server.deps.db.changes.sync();

    // The viewer's token of before stops; the owner's goes on.
    expectErrorBody(await server.api('GET', '/users/me', { token: viewer.token }), 401, 'UNAUTHENTICATED');
    expect((await server.api('GET', '/users/me', { token: m.token })).status).toBe(200);
    const sent = await login(viewer.email);
    expect(sent.body).toEqual({ twoFactorSetupRequired: true, setupToken: expect.any(String) });
    const setupToken = sent.body.setupToken as string;
    // The setup token opens the enrolment alone.
    expectErrorBody(await server.api('GET', '/users/me', { token: setupToken }), 401, 'UNAUTHENTICATED');
    expectErrorBody(
      await server.api('GET', '/dashboard/session', { token: setupToken }),
      401,
      'UNAUTHENTICATED',
    );
    expect((await server.api('GET', '/auth/two-factor', { token: setupToken })).body.required).toBe(true);
    const enrolled = await enrol(setupToken);
    // Used up by the confirmation: sign in again, with a code now.
    expectErrorBody(
      await server.api('GET', '/auth/two-factor', { token: setupToken }),
      401,
      'UNAUTHENTICATED',
    );
    const token = (await loginMfa(await mfaToken(viewer.email), await codeAt(enrolled.secret))).body.token;
    expect((await server.api('GET', '/users/me', { token })).status).toBe(200);
    // Nobody turns it off while it is required.
    expectErrorBody(await withCode('disable', m.token, await codeAt(secret)), 409, 'CONFLICT');
    // The dashboard sends it to enrol the same way.
    const dashboard = await server.api('POST', '/dashboard/session', {
      body: { email: admin.email, password: TEST_PASSWORD },
    });
    expect(dashboard.body).toEqual({ twoFactorSetupRequired: true, setupToken: expect.any(String) });
    expect(dashboard.headers.get('set-cookie')).toBeNull();
  });
});
