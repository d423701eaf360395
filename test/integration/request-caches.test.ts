import { Keypair } from '@solana/web3.js';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaches } from '../../server/db/caches';
import type { ChangeFeed } from '../../server/db/change-feed';
import { expectErrorBody, newMerchant, startTestServer, TEST_PASSWORD } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { addMember } from '../support/members';
import { until } from '../support/until';

/**
 * What instances remember of merchants and wallets (server/db/caches.ts): changes reach every
 * instance when they commit, and what decides money is checked again where it is written.
 */
let a: TestServer;
let b: TestServer;
/** An instance whose announcements never arrive: the worst a slow feed can do. */
let deaf: TestServer;

beforeAll(async () => {
  a = await startTestServer({ JOBS: 'none' });
  b = await startTestServer({ JOBS: 'none' });
  const neverAnnounced: ChangeFeed = {
    live: true,
    lost: false,
    subscribe: () => {},
    sync: async () => {},
    stop: async () => {},
  };
  deaf = await startTestServer(
    { JOBS: 'none' },
    { cache: createCaches({ models: a.deps.db.models, changes: neverAnnounced }) },
  );
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), deaf?.stop()]);
});

const me = (server: TestServer, token: string) => server.api('GET', '/users/me', { token });

/** Adds a receiving wallet through the instance that hears no announcements. */
const addWallet = (m: { token: string }, network: string, publicAddress: string) =>
  deaf.api('POST', '/users/me/wallets', { token: m.token, body: { network, public_address: publicAddress } });

/** Creates a USDT order through the instance that hears no announcements. */
const createOrder = (
  m: { token: string },
  body: { network: string; amount: string; merchantWalletId?: string },
) => deaf.api('POST', '/orders', { token: m.token, body: { ...body, token: 'USDT' } });

describe('merchants as instances remember them', () => {
  it('a password change ends the old token on its own instance at once, and on the others once announced', async () => {
    const m = await newMerchant(a);
    expect((await me(b, m.token)).status).toBe(200); // b now remembers the merchant
    const changed = await a.api('POST', '/users/me/password', {
      token: m.token,
      body: { current_password: TEST_PASSWORD, new_password: 'a brand new passphrase' },
    });
    expect(changed.status, changed.text).toBe(204);
    expectErrorBody(await me(a, m.token), 401, 'UNAUTHENTICATED');
    await b.deps.db.changes.sync();
    expectErrorBody(await me(b, m.token), 401, 'UNAUTHENTICATED');
  });

  it('a profile change through one instance is what the others show once announced', async () => {
    const m = await newMerchant(a, { name: 'Before' });
    expect((await me(b, m.token)).body.full_name).toBe('Before');
    const patched = await a.api('PATCH', '/users/me', { token: m.token, body: { full_name: 'After' } });
    expect(patched.status, patched.text).toBe(200);
    expect((await me(a, m.token)).body.full_name).toBe('After');
    await b.deps.db.changes.sync();
    expect((await me(b, m.token)).body.full_name).toBe('After');
  });

  it('creates no order under a token that a cache still accepts but the database no longer does', async () => {
    const m = await newMerchant(deaf, { wallets: ['SOLANA'] });
    await a.deps.db.sequelize.query('UPDATE members SET token_version = token_version + 1 WHERE id = :id', {
      replacements: { id: m.id },
    });
    // The deaf instance still takes the token for reads (a feed that never delivers is as stale as it gets) ...
    expect((await me(deaf, m.token)).status).toBe(200);
    // ... but the statement that writes an order checks the token's version itself.
    const order = await createOrder(m, { network: 'SOLANA', amount: '1.25' });
    expectErrorBody(order, 401, 'UNAUTHENTICATED');
    const [rows] = await a.deps.db.sequelize.query('SELECT id FROM orders WHERE merchant_id = :id', {
      replacements: { id: m.id },
    });
    expect(rows).toHaveLength(0);
    const [held] = await a.deps.db.sequelize.query(
      'SELECT 1 FROM amount_reservations WHERE amount_units = 1250000 AND held_until > now()',
    );
    expect(held).toHaveLength(0);
    // And once it has been told, the read is refused too.
    expectErrorBody(await me(deaf, m.token), 401, 'UNAUTHENTICATED');
  });

  it('keeps nothing while the feed is down: a change counts at once, announced or not', async () => {
    const m = await newMerchant(a);
    expect((await me(a, m.token)).status).toBe(200);
    await a.deps.db.sequelize.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE query = 'LISTEN stablepay_changes' AND datname = current_database()`,
    );
    await until('the change feed to go down', () => !a.deps.db.changes.live, 5000, 20);
    await b.deps.db.sequelize.query('UPDATE members SET token_version = token_version + 1 WHERE id = :id', {
      replacements: { id: m.id },
    });
    expectErrorBody(await me(a, m.token), 401, 'UNAUTHENTICATED');
    // It reconnects by itself, and remembers again from then on.
    await until('the change feed to come back', () => a.deps.db.changes.live, 10_000, 20);
    const login = await a.api('POST', '/auth/login', { body: { email: m.email, password: TEST_PASSWORD } });
    expect((await me(a, login.body.token)).status).toBe(200);
    await b.deps.db.sequelize.query('UPDATE merchants SET full_name = :name WHERE id = :id', {
      replacements: { id: m.id, name: 'Renamed by an operator' },
    });
    await a.deps.db.changes.sync();
    expect((await me(a, login.body.token)).body.full_name).toBe('Renamed by an operator');
  });
});

describe('wallets as instances remember them', () => {
  it('sends no order to a wallet removed after it was remembered: the next one in use takes it', async () => {
    const m = await newMerchant(deaf, { wallets: ['SOLANA'] });
    const first = m.wallets.SOLANA!;
    await deaf.deps.cache.wallets.get(m.id); // remembered, and never told otherwise
    const second = await addWallet(m, 'SOLANA', Keypair.generate().publicKey.toBase58());
    expect(second.status, second.text).toBe(201);
    const removed = await deaf.api('DELETE', `/users/me/wallets/${first}`, { token: m.token });
    expect(removed.status, removed.text).toBe(204);
    const order = await createOrder(m, { network: 'SOLANA', amount: '2' });
    expect(order.status, order.text).toBe(201);
    expect(order.body.merchantWalletId).toBe(second.body.wallet_id);
    expect(order.body.recipient).toBe(second.body.public_address);
  });

  it('finds a wallet added after the others were remembered, and refuses one named after its removal', async () => {
    const m = await newMerchant(deaf, { wallets: ['SOLANA'] });
    await deaf.deps.cache.wallets.get(m.id);
    const added = await addWallet(m, 'POLYGON', '0x52908400098527886E0F7030069857D2E4169EE7');
    expect(added.status, added.text).toBe(201);
    const polygon = await createOrder(m, { network: 'POLYGON', amount: '3' });
    expect(polygon.status, polygon.text).toBe(201);
    expect(polygon.body.merchantWalletId).toBe(added.body.wallet_id);

    const spare = await addWallet(m, 'SOLANA', Keypair.generate().publicKey.toBase58());
    await deaf.deps.cache.wallets.get(m.id, { fresh: true }); // remembered with the spare in it
    expect(
      (await deaf.api('DELETE', `/users/me/wallets/${spare.body.wallet_id}`, { token: m.token })).status,
    ).toBe(204);
    const named = await createOrder(m, {
      network: 'SOLANA',
      amount: '4',
      merchantWalletId: spare.body.wallet_id,
    });
    expectErrorBody(named, 404, 'NOT_FOUND');
  });
});

describe('a wallet removed while an order to it is being created', () => {
  it('the creation waits for the removal and then refuses the wallet: no order to a removed wallet', async () => {
    const m = await newMerchant(a, { wallets: ['SOLANA'] });
    const walletId = m.wallets.SOLANA!;
    // A removal in progress, as server/wallets/delete-wallet.ts does it: row locked, open orders
    // counted (none), marked removed, not yet committed.
    const removal = await a.deps.db.sequelize.transaction();
    await a.deps.db.sequelize.query('SELECT id FROM wallets WHERE id = :id FOR UPDATE', {
      replacements: { id: walletId },
      transaction: removal,
    });
    await a.deps.db.sequelize.query('UPDATE wallets SET deleted_at = now() WHERE id = :id', {
      replacements: { id: walletId },
      transaction: removal,
    });
    const creating = b.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '6.5' },
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the creation is waiting on the row
    await removal.commit();
    const order = await creating;
    expectErrorBody(order, 400, 'VALIDATION_ERROR');
    const [rows] = await a.deps.db.sequelize.query('SELECT id FROM orders WHERE wallet_id = :id', {
      replacements: { id: walletId },
    });
    expect(rows).toHaveLength(0);
  });
});

describe('two-factor sign-in as instances remember members', () => {
  /** Enrols the holder of `token` through `server`: a TOTP code confirms it; its recovery codes. */
  async function enrol(server: TestServer, token: string) {
    const started = await server.api('POST', '/auth/two-factor/enroll', { token });
    expect(started.status, started.text).toBe(200);
    const code = await generate({ secret: started.body.secret as string });
    const confirmed = await server.api('POST', '/auth/two-factor/confirm', { token, body: { code } });
    expect(confirmed.status, confirmed.text).toBe(200);
    return confirmed.body.recoveryCodes as string[];
  }

  it('an owner who enrolled on another instance may require it at once on one that has not heard', async () => {
    const m = await newMerchant(a);
    expect((await me(deaf, m.token)).status).toBe(200); // deaf remembers the owner without two-factor
    await enrol(a, m.token);
    const on = await deaf.api('PATCH', '/account', { token: m.token, body: { requireTwoFactor: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ requireTwoFactor: true });
  });

  it('a member who enrolled through a setup token is let in at once by the instance it enrolled on', async () => {
    const m = await newMerchant(deaf);
    await enrol(deaf, m.token);
    const on = await deaf.api('PATCH', '/account', { token: m.token, body: { requireTwoFactor: true } });
    expect(on.status, on.text).toBe(200);
    const viewer = await addMember(a, m.id, 'viewer');
    const sent = await deaf.api('POST', '/auth/login', {
      body: { email: viewer.email, password: TEST_PASSWORD },
    });
    expect(sent.body).toEqual({ twoFactorSetupRequired: true, setupToken: expect.any(String) });
    // Enrolling through the setup token has deaf remember the viewer, still without two-factor.
    const recoveryCodes = await enrol(deaf, sent.body.setupToken as string);
    const challenge = await deaf.api('POST', '/auth/login', {
      body: { email: viewer.email, password: TEST_PASSWORD },
    });
    expect(challenge.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    const signedIn = await deaf.api('POST', '/auth/login/mfa', {
      body: { mfaToken: challenge.body.mfaToken, code: recoveryCodes[0] },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    const seen = await me(deaf, signedIn.body.token as string);
    expect(seen.status, seen.text).toBe(200);
  });
});
