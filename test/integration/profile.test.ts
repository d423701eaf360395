import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, MerchantInputError } from '../../server/merchants/create-merchant';
import { resetMerchantPassword } from '../../server/merchants/reset-merchant-password';
import {
  TEST_PASSWORD,
  expectErrorBody,
  expectFieldError,
  newMerchant,
  startTestServer,
  type TestServer,
} from '../support/test-server';

let server: TestServer;
beforeAll(async () => {
  // Failed password changes count against the client like failed logins; this file makes a few on purpose.
  server = await startTestServer({ LOGIN_RATE_LIMIT_MAX: '100' });
});
afterAll(() => server?.stop());

const PROFILE_KEYS = [
  'created_at',
  'email',
  'full_name',
  'id',
  'messenger_bot_token_set',
  'messenger_chat_id',
  'phone',
  'underpayment_tolerance_bps',
  'updated_at',
  'webhook_api_version',
  'webhook_secret_set',
  'webhook_url',
].sort();

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function merchantColumns(id: string) {
  const [row] = await server.deps.db.sequelize.query<{
    messenger_bot_token_sealed: string | null;
    webhook_secret_sealed: string | null;
    previous_webhook_secret_sealed: string | null;
    password_hash: string;
  }>(
    `SELECT messenger_bot_token_sealed, webhook_secret_sealed, previous_webhook_secret_sealed,
            (SELECT password_hash FROM members WHERE members.id = merchants.id) AS password_hash
       FROM merchants WHERE id = :id`,
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return row!;
}

describe('GET /users/me', () => {
  it('returns exactly the profile fields, never the password or its hash', async () => {
    const m = await newMerchant(server, { name: 'Padaria Central' });
    const res = await server.api('GET', '/users/me', { token: m.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(PROFILE_KEYS);
    expect(res.body).toMatchObject({
      id: m.id,
      email: m.email,
      full_name: 'Padaria Central',
      phone: null,
      webhook_url: null,
      messenger_chat_id: null,
      messenger_bot_token_set: false,
      webhook_secret_set: false,
      webhook_api_version: null,
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(new Date(res.body.updated_at).toISOString()).toBe(res.body.updated_at);
    expect(res.text).not.toContain(TEST_PASSWORD);
    expect(res.text).not.toContain('argon2');
    expect(res.text).not.toMatch(/password|hash|token_version/i);
  });

  it('refuses every profile route without a token', async () => {
    const calls: [string, string, unknown][] = [
      ['GET', '/users/me', undefined],
      ['PATCH', '/users/me', { full_name: 'x' }],
      [
        'POST',
        '/users/me/password',
        { current_password: TEST_PASSWORD, new_password: 'a brand new password' },
      ],
      ['POST', '/users/me/webhook-secret', undefined],
    ];
    for (const [method, path, body] of calls)
      expectErrorBody(await server.api(method, path, { body }), 401, 'UNAUTHENTICATED');
  });
});

describe('PATCH /users/me', () => {
  it('updates each field, returns the profile and moves updated_at', async () => {
    const m = await newMerchant(server);
    const before = await server.api('GET', '/users/me', { token: m.token });
    await sleep(5);
    const changes = {
      full_name: 'Loja da Esquina',
      phone: '+55 11 91234-5678',
      webhook_url: 'https://shop.example.com/hooks/stablepay?x=1',
      messenger_chat_id: '-1001234567890',
    };
    const res = await server.api('PATCH', '/users/me', { token: m.token, body: changes });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(PROFILE_KEYS);
    expect(res.body).toMatchObject({
      ...changes,
      id: m.id,
      email: m.email,
      created_at: before.body.created_at,
    });
    expect(new Date(res.body.updated_at).getTime()).toBeGreaterThan(
      new Date(before.body.updated_at).getTime(),
    );

    const after = await server.api('GET', '/users/me', { token: m.token });
    expect(after.body).toEqual(res.body);
  });

  it('changes only the fields sent; null clears a field', async () => {
    const m = await newMerchant(server, { name: 'Keep Me' });
    const set = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: {
        phone: '+351 912 345 678',
        webhook_url: 'http://hooks.example.org/in',
        messenger_chat_id: '@my_shop_channel',
      },
    });
    expect(set.status).toBe(200);
    expect(set.body.full_name).toBe('Keep Me');

    const partial = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { phone: '+44 20 7946 0958' },
    });
    expect(partial.body).toMatchObject({
      full_name: 'Keep Me',
      phone: '+44 20 7946 0958',
      webhook_url: 'http://hooks.example.org/in',
      messenger_chat_id: '@my_shop_channel',
    });

    const cleared = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { full_name: null, phone: null, webhook_url: null, messenger_chat_id: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({
      full_name: null,
      phone: null,
      webhook_url: null,
      messenger_chat_id: null,
    });
    expect((await server.api('GET', '/users/me', { token: m.token })).body).toEqual(cleared.body);
  });

  it('refuses webhook URLs inside the network when private destinations are not allowed', async () => {
    const strict = await startTestServer({ WEBHOOK_ALLOW_PRIVATE: 'false', JOBS_ENABLED: 'false' });
    try {
      const m = await newMerchant(strict);
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://10.1.2.3/hook',
        'http://[::1]/hook',
        'http://localhost:3000/hook',
      ]) {
        const res = await strict.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: url } });
        expectFieldError(res, 'body.webhook_url');
      }
      const ok = await strict.api('PATCH', '/users/me', {
        token: m.token,
        body: { webhook_url: 'https://93.184.216.34/hook' },
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.webhook_url).toBe('https://93.184.216.34/hook');
      const cleared = await strict.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: null } });
      expect(cleared.body.webhook_url).toBeNull();
    } finally {
      await strict.stop();
    }
  });

  it('trims full_name', async () => {
    const m = await newMerchant(server);
    const res = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { full_name: '  Acme Ltda  ' },
    });
    expect(res.status).toBe(200);
    expect(res.body.full_name).toBe('Acme Ltda');
  });

  it('stores the messenger bot token sealed and never returns it', async () => {
    const m = await newMerchant(server);
    const res = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { messenger_bot_token: BOT_TOKEN },
    });
    expect(res.status).toBe(200);
    expect(res.body.messenger_bot_token_set).toBe(true);
    expect(Object.keys(res.body).sort()).toEqual(PROFILE_KEYS);
    expect(res.text).not.toContain(BOT_TOKEN);
    expect(res.text).not.toContain('AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq');

    const got = await server.api('GET', '/users/me', { token: m.token });
    expect(got.body.messenger_bot_token_set).toBe(true);
    expect(got.text).not.toContain(BOT_TOKEN);

    const row = await merchantColumns(m.id);
    expect(row.messenger_bot_token_sealed).toBeTruthy();
    expect(row.messenger_bot_token_sealed).not.toContain(BOT_TOKEN);
    expect(row.messenger_bot_token_sealed).not.toContain('AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq');
    expect(server.deps.secrets.open(row.messenger_bot_token_sealed!)).toBe(BOT_TOKEN);

    // Another change leaves the token alone; null removes it.
    const other = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { full_name: 'Still set' },
    });
    expect(other.body.messenger_bot_token_set).toBe(true);
    const cleared = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { messenger_bot_token: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.messenger_bot_token_set).toBe(false);
    expect((await merchantColumns(m.id)).messenger_bot_token_sealed).toBeNull();
  });

  it.each([
    ['webhook_url', 'ftp://x'],
    ['webhook_url', 'not a url'],
    ['webhook_url', 'javascript:alert(1)'],
    ['phone', 'abc'],
    ['messenger_chat_id', 'hello world'],
    ['messenger_bot_token', 'nope'],
    ['full_name', ''],
    ['full_name', '   '],
    ['full_name', 'x'.repeat(201)],
    ['full_name', 5],
    ['phone', 5511912345678],
    ['webhook_url', true],
    ['messenger_chat_id', 12345],
    ['messenger_bot_token', { token: BOT_TOKEN }],
  ])('rejects %s = %j with 400 and the field path', async (field, value) => {
    const m = await newMerchant(server);
    const before = await server.api('GET', '/users/me', { token: m.token });
    const res = await server.api('PATCH', '/users/me', { token: m.token, body: { [field]: value } });
    expectFieldError(res, `body.${field}`);
    // Nothing was written.
    expect((await server.api('GET', '/users/me', { token: m.token })).body).toEqual(before.body);
  });

  it.each([
    ['email', { email: 'someone-else@example.com' }],
    ['password', { password: 'a brand new password' }],
    ['id', { id: '00000000-0000-4000-8000-000000000000' }],
    ['messenger_bot_token_set', { messenger_bot_token_set: true }],
  ])('rejects the unknown or read-only field %s with 400', async (_label, body) => {
    const m = await newMerchant(server);
    const res = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { full_name: 'Sneaky', ...body },
    });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    const me = await server.api('GET', '/users/me', { token: m.token });
    expect(me.body.email).toBe(m.email);
    expect(me.body.full_name).toBe('Test Shop');
    // The password still works.
    const login = await server.api('POST', '/auth/login', {
      body: { email: m.email, password: TEST_PASSWORD },
    });
    expect(login.status).toBe(200);
  });

  it('rejects a body that is not an object, or malformed JSON, with 400', async () => {
    const m = await newMerchant(server);
    expectErrorBody(
      await server.api('PATCH', '/users/me', { token: m.token, body: ['full_name'] }),
      400,
      'VALIDATION_ERROR',
    );
    expectErrorBody(
      await server.api('PATCH', '/users/me', { token: m.token, rawBody: '{"full_name":' }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('POST /users/me/password', () => {
  const NEW_PASSWORD = 'a much longer new password';

  it('refuses a wrong current password', async () => {
    const m = await newMerchant(server);
    const res = await server.api('POST', '/users/me/password', {
      token: m.token,
      body: { current_password: 'not the password', new_password: NEW_PASSWORD },
    });
    expectFieldError(res, 'body.current_password');
    expect((await server.api('GET', '/users/me', { token: m.token })).status).toBe(200);
  });

  it('refuses a new password shorter than 10 characters', async () => {
    const m = await newMerchant(server);
    const res = await server.api('POST', '/users/me/password', {
      token: m.token,
      body: { current_password: TEST_PASSWORD, new_password: 'short1234' },
    });
    expectFieldError(res, 'body.new_password');
  });

  it('refuses a new password equal to the current one', async () => {
    const m = await newMerchant(server);
    const res = await server.api('POST', '/users/me/password', {
      token: m.token,
      body: { current_password: TEST_PASSWORD, new_password: TEST_PASSWORD },
    });
    expectFieldError(res, 'body.new_password');
    expect((await server.api('GET', '/users/me', { token: m.token })).status).toBe(200);
  });

  it('refuses missing fields, wrong types and unknown fields', async () => {
    const m = await newMerchant(server);
    for (const body of [
      {},
      { current_password: TEST_PASSWORD },
      { new_password: NEW_PASSWORD },
      { current_password: TEST_PASSWORD, new_password: 1234567890123 },
      { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD, email: 'x@example.com' },
    ])
      expectErrorBody(
        await server.api('POST', '/users/me/password', { token: m.token, body }),
        400,
        'VALIDATION_ERROR',
      );
    // None of these changed anything.
    const login = await server.api('POST', '/auth/login', {
      body: { email: m.email, password: TEST_PASSWORD },
    });
    expect(login.status).toBe(200);
  });

  it('changes the password: 204, old tokens and the old password stop working, the new ones work', async () => {
    const m = await newMerchant(server);
    const hashBefore = (await merchantColumns(m.id)).password_hash;
    const res = await server.api('POST', '/users/me/password', {
      token: m.token,
      body: { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    const row = await merchantColumns(m.id);
    expect(row.password_hash).not.toBe(hashBefore);
    expect(row.password_hash).not.toContain(NEW_PASSWORD);

    expectErrorBody(await server.api('GET', '/users/me', { token: m.token }), 401, 'UNAUTHENTICATED');
    expectErrorBody(await server.api('GET', '/users/me/wallets', { token: m.token }), 401, 'UNAUTHENTICATED');
    expectErrorBody(
      await server.api('POST', '/auth/login', { body: { email: m.email, password: TEST_PASSWORD } }),
      401,
      'UNAUTHENTICATED',
    );

    const login = await server.api('POST', '/auth/login', {
      body: { email: m.email, password: NEW_PASSWORD },
    });
    expect(login.status).toBe(200);
    const me = await server.api('GET', '/users/me', { token: login.body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(m.email);
    expect(me.text).not.toContain(NEW_PASSWORD);
  });

  it('refuses the old token even for a second password change', async () => {
    const m = await newMerchant(server);
    const first = await server.api('POST', '/users/me/password', {
      token: m.token,
      body: { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(first.status).toBe(204);
    const again = await server.api('POST', '/users/me/password', {
      token: m.token,
      body: { current_password: NEW_PASSWORD, new_password: 'yet another password' },
    });
    expectErrorBody(again, 401, 'UNAUTHENTICATED');
  });
  it('lets only one of two concurrent changes with the same token win', async () => {
    const m = await newMerchant(server);
    const [a, b] = await Promise.all(
      ['first new password', 'second new password'].map((new_password) =>
        server.api('POST', '/users/me/password', {
          token: m.token,
          body: { current_password: TEST_PASSWORD, new_password },
        }),
      ),
    );
    expect([a!.status, b!.status].sort()).toEqual([204, 401]);
    const winner = a!.status === 204 ? 'first new password' : 'second new password';
    const loser = a!.status === 204 ? 'second new password' : 'first new password';
    expect(
      (await server.api('POST', '/auth/login', { body: { email: m.email, password: winner } })).status,
    ).toBe(200);
    expect(
      (await server.api('POST', '/auth/login', { body: { email: m.email, password: loser } })).status,
    ).toBe(401);
  });
});

describe('POST /users/me/webhook-secret', () => {
  it('creates, then rotates the secret with a 24 h grace for the previous one; stored sealed', async () => {
    const m = await newMerchant(server);
    const first = await server.api('POST', '/users/me/webhook-secret', { token: m.token });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['previous_secret_expires_at', 'webhook_secret']);
    expect(first.body.webhook_secret).toMatch(/^whsec_[A-Za-z0-9_-]{32,}$/);
    expect(first.body.previous_secret_expires_at).toBeNull();

    const me = await server.api('GET', '/users/me', { token: m.token });
    expect(me.body.webhook_secret_set).toBe(true);
    expect(me.text).not.toContain(first.body.webhook_secret);

    const row1 = await merchantColumns(m.id);
    expect(row1.webhook_secret_sealed).toBeTruthy();
    expect(row1.webhook_secret_sealed).not.toBe(first.body.webhook_secret);
    expect(row1.webhook_secret_sealed).not.toContain(first.body.webhook_secret.slice('whsec_'.length));
    expect(server.deps.secrets.open(row1.webhook_secret_sealed!)).toBe(first.body.webhook_secret);

    const second = await server.api('POST', '/users/me/webhook-secret', { token: m.token });
    expect(second.status).toBe(200);
    expect(second.body.webhook_secret).toMatch(/^whsec_/);
    expect(second.body.webhook_secret).not.toBe(first.body.webhook_secret);
    const grace = new Date(second.body.previous_secret_expires_at).getTime() - Date.now();
    expect(grace).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(grace).toBeLessThanOrEqual(24 * 3600_000);

    const row2 = await merchantColumns(m.id);
    expect(server.deps.secrets.open(row2.webhook_secret_sealed!)).toBe(second.body.webhook_secret);
    expect(server.deps.secrets.open(row2.previous_webhook_secret_sealed!)).toBe(first.body.webhook_secret);
    expect((await server.api('GET', '/users/me', { token: m.token })).body.webhook_secret_set).toBe(true);
  });

  it('serializes concurrent rotations: the secrets returned are the current and the previous one', async () => {
    const m = await newMerchant(server);
    const initial = await server.api('POST', '/users/me/webhook-secret', { token: m.token });
    expect(initial.status).toBe(200);
    const results = await Promise.all(
      [1, 2].map(() => server.api('POST', '/users/me/webhook-secret', { token: m.token })),
    );
    for (const r of results) expect(r.status).toBe(200);
    const row = await merchantColumns(m.id);
    const kept = [row.webhook_secret_sealed!, row.previous_webhook_secret_sealed!].map((s) =>
      server.deps.secrets.open(s),
    );
    // Whatever the order, each caller's secret still signs: neither was silently dropped.
    expect(kept.sort()).toEqual(results.map((r) => r.body.webhook_secret as string).sort());
  });

  it('ignores a JSON body it does not need and leaves other merchants alone', async () => {
    const a = await newMerchant(server);
    const b = await newMerchant(server);
    const res = await server.api('POST', '/users/me/webhook-secret', { token: a.token, body: {} });
    expect(res.status).toBe(200);
    expect((await server.api('GET', '/users/me', { token: b.token })).body.webhook_secret_set).toBe(false);
  });
});

describe('accounts made outside the API (merchant:create, merchant:reset-password)', () => {
  it('refuses what login would refuse, so every account made can log in', async () => {
    const models = server.deps.db.models;
    const unique = () => `${Date.now()}${Math.random().toString(36).slice(2)}`;
    for (const email of [
      `a..b${unique()}@example.com`,
      `x${unique()}@exa_mple.com`,
      `x${unique()}@localhost`,
      'not an email',
    ])
      await expect(createMerchant(models, { email, password: TEST_PASSWORD })).rejects.toBeInstanceOf(
        MerchantInputError,
      );
    const email = `cli-${unique()}@example.com`;
    await expect(createMerchant(models, { email, password: 'p'.repeat(1025) })).rejects.toThrow(
      /at most 1024/,
    );
    await expect(createMerchant(models, { email, password: 'short' })).rejects.toThrow(/at least 10/);
    await expect(
      createMerchant(models, { email, password: TEST_PASSWORD, name: 'n'.repeat(201) }),
    ).rejects.toThrow(/200/);

    const longest = 'p'.repeat(1024);
    await createMerchant(models, { email: `  ${email}  `, password: longest, name: '  CLI Shop  ' });
    const login = await server.api('POST', '/auth/login', { body: { email, password: longest } });
    expect(login.status, login.text).toBe(200);
    const me = await server.api('GET', '/users/me', { token: login.body.token });
    expect(me.body).toMatchObject({ email, full_name: 'CLI Shop' });
  });

  it('a reset ends every token issued before', async () => {
    const m = await newMerchant(server);
    await resetMerchantPassword(server.deps.db.models, {
      email: m.email.toUpperCase(),
      password: 'reset by the operator',
    });
    // As from `merchant:reset-password` in another process: the server hears of it when it commits.
    await server.deps.db.changes.sync();
    expectErrorBody(await server.api('GET', '/users/me', { token: m.token }), 401, 'UNAUTHENTICATED');
    const login = await server.api('POST', '/auth/login', {
      body: { email: m.email, password: 'reset by the operator' },
    });
    expect(login.status).toBe(200);
    expect((await server.api('GET', '/users/me', { token: login.body.token })).status).toBe(200);
    await expect(
      resetMerchantPassword(server.deps.db.models, { email: m.email, password: 'p'.repeat(1025) }),
    ).rejects.toBeInstanceOf(MerchantInputError);
  });
});
