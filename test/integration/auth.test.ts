import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import {
  TEST_PASSWORD,
  expectErrorBody,
  newMerchant,
  startTestServer,
  useTestServer,
} from '../support/test-server';

const server = useTestServer({ LOGIN_RATE_LIMIT_MAX: '3' });

describe('POST /auth/login', () => {
  it('returns a 7-day HS256 token that opens merchant routes', async () => {
    const m = await newMerchant(server);
    const res = await server.api('POST', '/auth/login', {
      body: { email: m.email.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.tokenType).toBe('Bearer');
    const decoded = jwt.decode(res.body.token, { complete: true })!;
    expect(decoded.header.alg).toBe('HS256');
    const claims = decoded.payload as jwt.JwtPayload;
    expect(claims.exp! - claims.iat!).toBe(7 * 24 * 3600);
    expect(new Date(res.body.expiresAt).getTime()).toBe(claims.exp! * 1000);
    const me = await server.api('GET', '/users/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(m.email);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const m = await newMerchant(server);
    const wrong = await server.api('POST', '/auth/login', {
      body: { email: m.email, password: 'not the password' },
    });
    const unknown = await server.api('POST', '/auth/login', {
      body: { email: `x${m.email}`, password: 'not the password' },
    });
    expectErrorBody(wrong, 401, 'UNAUTHENTICATED');
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('rate-limits failed logins with 429, Retry-After and the error body; success does not count', async () => {
    const m = await newMerchant(server);
    const ok = await server.api('POST', '/auth/login', { body: { email: m.email, password: TEST_PASSWORD } });
    expect(ok.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const res = await server.api('POST', '/auth/login', {
        body: { email: m.email, password: `wrong-${i}` },
      });
      expect(res.status).toBe(401);
    }
    const limited = await server.api('POST', '/auth/login', {
      body: { email: m.email, password: TEST_PASSWORD },
    });
    expectErrorBody(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('rejects bad login bodies with 400', async () => {
    for (const body of [
      {},
      { email: 'not-an-email', password: 'x' },
      { email: 'a@b.co' },
      { email: 1, password: 2 },
    ]) {
      expectErrorBody(await server.api('POST', '/auth/login', { body }), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('bearer tokens', () => {
  const secret = () => server.deps.tokens.secret;
  /** An hour's token unless the payload says when it expires. */
  const sign = (payload: object, key: string, options: jwt.SignOptions = {}) =>
    jwt.sign(payload, key, {
      algorithm: 'HS256',
      issuer: 'stablepay',
      ...('exp' in payload ? {} : { expiresIn: '1h' }),
      ...options,
    });

  it.each([
    ['missing', undefined],
    ['garbage', 'garbage'],
    ['not a JWT', 'a.b.c'],
  ])('refuses a %s token with 401', async (_label, token) => {
    expectErrorBody(await server.api('GET', '/users/me', { token }), 401, 'UNAUTHENTICATED');
  });

  it('refuses forged, alg:none, expired, foreign-issuer and unknown-subject tokens', async () => {
    const m = await newMerchant(server);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: m.id, ver: 0, iss: 'stablepay' }),
    ).toString('base64url')}.`;
    const tokens = [
      sign({ ver: 0 }, 'another-secret-of-at-least-thirty-two-chars', { subject: m.id }),
      unsigned,
      sign({ ver: 0, exp: Math.floor(Date.now() / 1000) - 10 }, secret(), { subject: m.id }),
      jwt.sign({ ver: 0 }, secret(), {
        algorithm: 'HS256',
        issuer: 'someone-else',
        subject: m.id,
        expiresIn: '1h',
      }),
      sign({ ver: 0 }, secret(), { subject: '00000000-0000-4000-8000-000000000000' }),
      sign({ ver: 0 }, secret(), { subject: 'not-a-uuid' }),
      sign({ ver: 'x' }, secret(), { subject: m.id }),
    ];
    for (const token of tokens)
      expectErrorBody(await server.api('GET', '/users/me', { token }), 401, 'UNAUTHENTICATED');
    // The same claims, properly signed, work: the refusals above are about the token, not the merchant.
    expect(
      (await server.api('GET', '/users/me', { token: sign({ ver: 0 }, secret(), { subject: m.id }) })).status,
    ).toBe(200);
  });

  it('checks a token it has verified before as strictly: altered or re-signed copies fail, expiry holds', async () => {
    const m = await newMerchant(server);
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = sign({ ver: 0, exp }, secret(), { subject: m.id });
    expect((await server.api('GET', '/users/me', { token })).status).toBe(200);
    expect((await server.api('GET', '/users/me', { token })).status).toBe(200);
    const [header, payload] = token.split('.');
    const foreign = sign({ ver: 0, exp }, 'another-secret-of-at-least-thirty-two-chars', { subject: m.id });
    const otherClaims = Buffer.from(
      JSON.stringify({ ...jwt.decode(token, { json: true }), ver: 1 }),
    ).toString('base64url');
    for (const altered of [
      `${header}.${payload}.${foreign.split('.')[2]}`, // the remembered claims, another key's signature
      `${header}.${otherClaims}.${token.split('.')[2]}`, // other claims under the remembered signature
      `${token}x`,
    ])
      expectErrorBody(await server.api('GET', '/users/me', { token: altered }), 401, 'UNAUTHENTICATED');
    // Expiry is checked on every use, to the second, as jsonwebtoken checks it.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 - Date.now()) + 50));
    const late = await server.api('GET', '/users/me', { token });
    expectErrorBody(late, 401, 'UNAUTHENTICATED');
    expect(late.body.error.message).toMatch(/expired/i);
  });

  it('says when a token has expired', async () => {
    const m = await newMerchant(server);
    const expired = sign({ ver: 0, exp: Math.floor(Date.now() / 1000) - 10 }, secret(), { subject: m.id });
    const res = await server.api('GET', '/users/me', { token: expired });
    expect(res.body.error.message).toMatch(/expired/i);
  });
});

describe('token lifetime and signing secret', () => {
  const sign = (payload: object, key: string, options: jwt.SignOptions = {}) =>
    jwt.sign(payload, key, { algorithm: 'HS256', issuer: 'stablepay', ...options });
  const now = () => Math.floor(Date.now() / 1000);

  it('refuses a correctly signed token that lives longer than JWT_TTL, has no expiry or is issued ahead', async () => {
    const m = await newMerchant(server);
    const key = server.deps.tokens.secret;
    const ttl = 7 * 24 * 3600; // JWT_TTL's default
    const iat = now() - 10;
    const refused = [
      sign({ ver: 0, iat, exp: iat + ttl + 1 }, key, { subject: m.id }), // a second too long
      sign({ ver: 0, iat, exp: iat + 365 * 24 * 3600 }, key, { subject: m.id }),
      sign({ ver: 0, iat }, key, { subject: m.id }), // no exp: forever
      sign({ ver: 0, exp: now() + 3600 }, key, { subject: m.id, noTimestamp: true }), // no iat
      sign({ ver: 0, iat: now() + 30 * 24 * 3600, exp: now() + 31 * 24 * 3600 }, key, { subject: m.id }),
    ];
    for (const token of refused) {
      expectErrorBody(await server.api('GET', '/users/me', { token }), 401, 'UNAUTHENTICATED');
      expectErrorBody(
        await server.api('POST', '/users/me/api-keys', {
          token,
          body: { name: 'k', scopes: ['orders:read'] },
        }),
        401,
        'UNAUTHENTICATED',
      );
    }
    // JWT_TTL exactly is fine: the refusals are about the lifetime.
    const full = sign({ ver: 0, iat, exp: iat + ttl }, key, { subject: m.id });
    expect((await server.api('GET', '/users/me', { token: full })).status).toBe(200);
  });

  it('judges expiry by the service clock that issued the token, before and after a verified token is remembered', async () => {
    let at = new Date('2026-11-01T12:00:00Z'); // weeks before the real date: every token it issues is long expired by it
    const own = await startTestServer({ JOBS: 'none' }, { clock: () => new Date(at) });
    try {
      const m = await newMerchant(own);
      const login = await own.api('POST', '/auth/login', {
        body: { email: m.email, password: TEST_PASSWORD },
      });
      expect(login.status).toBe(200);
      expect((await own.api('GET', '/users/me', { token: login.body.token })).status).toBe(200);
      at = new Date(new Date(login.body.expiresAt).getTime() - 1000);
      expect((await own.api('GET', '/users/me', { token: login.body.token })).status).toBe(200);
      at = new Date(login.body.expiresAt);
      const late = await own.api('GET', '/users/me', { token: login.body.token });
      expectErrorBody(late, 401, 'UNAUTHENTICATED');
      expect(late.body.error.message).toMatch(/expired/i);
    } finally {
      await own.stop();
    }
  });

  it('gives a server started without JWT_SECRET a secret of its own: the former built-in one opens nothing', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-jwt-'));
    // JWT_SECRET unset (an empty value counts as unset); the file's encryption key, as its database needs.
    const own = await startTestServer({ JWT_SECRET: '', DATA_DIR: dataDir, JOBS: 'none' });
    try {
      const m = await newMerchant(own);
      const formerDefault = 'stablepay-development-jwt-secret-do-not-use-in-production';
      const forged = sign({ ver: 0 }, formerDefault, { subject: m.id, expiresIn: '1h' });
      expectErrorBody(await own.api('GET', '/users/me', { token: forged }), 401, 'UNAUTHENTICATED');
      const key = await own.api('POST', '/users/me/api-keys', {
        token: forged,
        body: { name: 'forged', scopes: ['orders:read', 'orders:write'] },
      });
      expectErrorBody(key, 401, 'UNAUTHENTICATED');
      // The same claims under the server's own secret open both: only the secret differs.
      const genuine = sign({ ver: 0 }, own.deps.tokens.secret, { subject: m.id, expiresIn: '1h' });
      expect((await own.api('GET', '/users/me', { token: genuine })).status).toBe(200);
      const stored = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
      expect(stored.JWT_SECRET).toBe(own.deps.tokens.secret);
      expect(own.deps.tokens.secret).not.toBe(formerDefault);
    } finally {
      await own.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
