import { randomBytes } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import { QueryTypes, Sequelize } from 'sequelize';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { MAX_WALLETS } from '../../contract';
import { migrate } from '../../server/db/migrate';
import * as walletOwnersMigration from '../../server/db/migrations/0018-wallet-owners-and-claims';
import { encodeBase58 } from '../../server/lib/base58';
import {
  createTestDatabase,
  expectErrorBody,
  expectFieldError,
  newMerchant,
  requestSolanaOrder,
  useTestServer,
} from '../support/test-server';

// MAX_WALLETS + 5 creations at once queue on one merchant's lock, each holding one of the pool's 5
// connections: on a loaded machine the last wait longer than the tests' 3 s for a connection (then
// 503, as the service should). What this file tests is the limit, so the wait for a connection is long.
const server = useTestServer({ API_RATE_LIMIT_PER_MINUTE: '10000', DB_ACQUIRE_TIMEOUT_MS: '20000' });

const WALLET_KEYS = ['created_at', 'name', 'network', 'public_address', 'wallet_id'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EIP55 = '0x52908400098527886E0F7030069857D2E4169EE7';
const EIP55_LOWER = EIP55.toLowerCase();

const solanaKey = () => Keypair.generate().publicKey.toBase58();
/** Base58 of n random bytes with a non-zero first byte (so no leading '1' shortens the text). */
const base58Bytes = (n: number) => {
  const bytes = randomBytes(n);
  bytes[0] = bytes[0]! | 1;
  return encodeBase58(bytes);
};
/** A random EIP-55 address, via the server's own normalization of a lowercase one. */
const evmAddress = () => `0x${randomBytes(20).toString('hex')}`;

type Merchant = Awaited<ReturnType<typeof newMerchant>>;

function addWallet(m: Merchant, body: unknown) {
  return server.api('POST', '/users/me/wallets', { token: m.token, body });
}
async function listWallets(m: Merchant) {
  const res = await server.api<{
    items: { wallet_id: string; public_address: string; network: string; name: string | null }[];
  }>('GET', '/users/me/wallets', { token: m.token });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body)).toEqual(['items']);
  return res.body.items;
}
async function setOrderStatus(reference: string, status: string) {
  await server.deps.db.sequelize.query('UPDATE orders SET status = :status WHERE reference = :reference', {
    replacements: { status, reference },
    type: QueryTypes.UPDATE,
  });
}

describe('POST /users/me/wallets and GET /users/me/wallets', () => {
  it('creates a Solana wallet and lists it', async () => {
    const m = await newMerchant(server);
    expect(await listWallets(m)).toEqual([]);
    const address = solanaKey();
    const res = await addWallet(m, { name: 'Main', network: 'SOLANA', public_address: address });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(WALLET_KEYS);
    expect(res.body).toMatchObject({ name: 'Main', network: 'SOLANA', public_address: address });
    expect(res.body.wallet_id).toMatch(UUID);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(Math.abs(new Date(res.body.created_at).getTime() - Date.now())).toBeLessThan(60_000);
    expect(await listWallets(m)).toEqual([res.body]);
  });

  it('makes the name optional (null) and trims name and address', async () => {
    const m = await newMerchant(server);
    const address = solanaKey();
    const unnamed = await addWallet(m, { network: 'SOLANA', public_address: ` ${address} ` });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.name).toBeNull();
    expect(unnamed.body.public_address).toBe(address);
    const named = await addWallet(m, {
      name: '  Cold storage ',
      network: 'ETHEREUM',
      public_address: evmAddress(),
    });
    expect(named.status).toBe(201);
    expect(named.body.name).toBe('Cold storage');
    // Oldest first.
    expect((await listWallets(m)).map((w) => w.wallet_id)).toEqual([
      unnamed.body.wallet_id,
      named.body.wallet_id,
    ]);
  });

  it.each([
    ['a 31-byte key', () => base58Bytes(31)],
    ['a 33-byte key', () => base58Bytes(33)],
    ['garbage', () => 'not-a-key!'],
    ['base58 with a forbidden character', () => `0${solanaKey().slice(1)}`],
    ['an EVM address', () => EIP55],
    ['the all-zero key (System Program)', () => '11111111111111111111111111111111'],
    ['a key with an extra leading 1', () => `1${solanaKey()}`],
  ])('refuses %s on SOLANA', async (_label, make) => {
    const m = await newMerchant(server);
    expectFieldError(
      await addWallet(m, { network: 'SOLANA', public_address: make() }),
      'body.public_address',
    );
    expect(await listWallets(m)).toEqual([]);
  });

  it('accepts lowercase and upper-case EVM addresses and stores them EIP-55 checksummed', async () => {
    const m = await newMerchant(server);
    const lower = await addWallet(m, { network: 'POLYGON', public_address: EIP55_LOWER });
    expect(lower.status).toBe(201);
    expect(lower.body.public_address).toBe(EIP55);
    const upper = await addWallet(m, {
      network: 'ETHEREUM',
      public_address: `0x${EIP55.slice(2).toUpperCase()}`,
    });
    expect(upper.status).toBe(201);
    expect(upper.body.public_address).toBe(EIP55);
    const checksummed = await addWallet(m, {
      network: 'ETHEREUM',
      public_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    });
    expect(checksummed.status).toBe(201);
    expect(checksummed.body.public_address).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
    const [row] = await server.deps.db.sequelize.query<{ public_address: string }>(
      'SELECT public_address FROM wallets WHERE id = :id',
      { replacements: { id: lower.body.wallet_id }, type: QueryTypes.SELECT },
    );
    expect(row!.public_address).toBe(EIP55);
  });

  it.each([
    ['a mixed-case address with a wrong checksum', '0x52908400098527886E0F7030069857D2E4169Ee7'],
    ['the zero address', '0x0000000000000000000000000000000000000000'],
    ['short hex', '0x5290840009852788'],
    ['41 hex digits', `${EIP55_LOWER}0`],
    ['no 0x prefix', EIP55_LOWER.slice(2)],
    ['a 0X prefix', `0X${EIP55_LOWER.slice(2)}`],
    ['non-hex characters', `0x${'g'.repeat(40)}`],
    ['a Solana key', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'],
  ])('refuses %s on POLYGON and ETHEREUM', async (_label, address) => {
    const m = await newMerchant(server);
    for (const network of ['POLYGON', 'ETHEREUM'])
      expectFieldError(await addWallet(m, { network, public_address: address }), 'body.public_address');
    expect(await listWallets(m)).toEqual([]);
  });

  it('accepts an off-curve Solana address (a program-derived vault, e.g. a multisig)', async () => {
    const m = await newMerchant(server);
    const [vault] = PublicKey.findProgramAddressSync(
      [Buffer.from('vault'), randomBytes(8)],
      Keypair.generate().publicKey,
    );
    expect(PublicKey.isOnCurve(vault.toBytes())).toBe(false);
    const res = await addWallet(m, { network: 'SOLANA', public_address: vault.toBase58() });
    expect(res.status).toBe(201);
    expect(res.body.public_address).toBe(vault.toBase58());
  });

  it('refuses a duplicate with 409, also in another spelling of the same EVM address', async () => {
    const m = await newMerchant(server);
    const address = solanaKey();
    const evm = getAddress(evmAddress());
    expect((await addWallet(m, { network: 'SOLANA', public_address: address })).status).toBe(201);
    expectErrorBody(
      await addWallet(m, { name: 'again', network: 'SOLANA', public_address: address }),
      409,
      'CONFLICT',
    );

    expect((await addWallet(m, { network: 'POLYGON', public_address: evm })).status).toBe(201);
    expectErrorBody(
      await addWallet(m, { network: 'POLYGON', public_address: evm.toLowerCase() }),
      409,
      'CONFLICT',
    );
    expectErrorBody(
      await addWallet(m, { network: 'POLYGON', public_address: `0x${evm.slice(2).toUpperCase()}` }),
      409,
      'CONFLICT',
    );
    // The same address on the other EVM network is another wallet.
    expect((await addWallet(m, { network: 'ETHEREUM', public_address: evm.toLowerCase() })).status).toBe(201);
    expect(await listWallets(m)).toHaveLength(3);
  });

  it('refuses concurrent duplicates: exactly one is created', async () => {
    const m = await newMerchant(server);
    const address = evmAddress();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => addWallet(m, { network: 'ETHEREUM', public_address: address })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await listWallets(m)).toHaveLength(1);
  });

  it(`keeps at most MAX_WALLETS (${MAX_WALLETS}) per merchant, also when created at once: 409 beyond`, async () => {
    const m = await newMerchant(server);
    const results = await Promise.all(
      Array.from({ length: MAX_WALLETS + 5 }, () =>
        addWallet(m, { network: 'ETHEREUM', public_address: evmAddress() }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_WALLETS);
    for (const refused of results.filter((r) => r.status !== 201)) expectErrorBody(refused, 409, 'CONFLICT');
    expect(await listWallets(m)).toHaveLength(MAX_WALLETS);
    // Removing one makes room again.
    const [first] = await listWallets(m);
    await server.api('DELETE', `/users/me/wallets/${first!.wallet_id}`, { token: m.token });
    expect((await addWallet(m, { network: 'SOLANA', public_address: solanaKey() })).status).toBe(201);
  });

  it("refuses another merchant's address with 409, in any spelling, also after its owner removed it", async () => {
    const owner = await newMerchant(server);
    const thief = await newMerchant(server);
    const solana = solanaKey();
    const evm = evmAddress();
    expect((await addWallet(owner, { network: 'SOLANA', public_address: solana })).status).toBe(201);
    const evmWallet = await addWallet(owner, { network: 'ETHEREUM', public_address: evm });
    expect(evmWallet.status).toBe(201);
    const refused = await addWallet(thief, { network: 'SOLANA', public_address: solana });
    expectErrorBody(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toMatch(/registered by another account/);
    expectErrorBody(
      await addWallet(thief, { network: 'ETHEREUM', public_address: evmWallet.body.public_address }),
      409,
      'CONFLICT',
    );
    expectErrorBody(
      await addWallet(thief, { network: 'ETHEREUM', public_address: `0x${evm.slice(2).toUpperCase()}` }),
      409,
      'CONFLICT',
    );
    // Removed by its owner, the address is still the owner's: the key did not change hands.
    const del = await server.api('DELETE', `/users/me/wallets/${evmWallet.body.wallet_id}`, {
      token: owner.token,
    });
    expect(del.status).toBe(204);
    expectErrorBody(await addWallet(thief, { network: 'ETHEREUM', public_address: evm }), 409, 'CONFLICT');
    expect(await listWallets(thief)).toEqual([]);
    // The owner may add it back; the same address on another network is another wallet.
    expect((await addWallet(owner, { network: 'ETHEREUM', public_address: evm })).status).toBe(201);
    expect((await addWallet(thief, { network: 'POLYGON', public_address: evm })).status).toBe(201);
  });

  it('lets exactly one of two merchants registering one address at once own it', async () => {
    const merchants = await Promise.all(Array.from({ length: 4 }, () => newMerchant(server)));
    const address = evmAddress();
    const results = await Promise.all(
      merchants.map((m) => addWallet(m, { network: 'POLYGON', public_address: address })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const [owner] = await server.deps.db.sequelize.query<{ merchant_id: string }>(
      'SELECT merchant_id FROM wallet_owners WHERE network = :network AND address = :address',
      {
        type: QueryTypes.SELECT,
        replacements: {
          network: 'POLYGON',
          address: results.find((r) => r.status === 201)!.body.public_address,
        },
      },
    );
    expect(merchants[results.findIndex((r) => r.status === 201)]!.id).toBe(owner!.merchant_id);
  });

  it.each([
    [
      'a lower-case network',
      { network: 'solana', public_address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' },
      'body.network',
    ],
    [
      'an unknown network',
      { network: 'BITCOIN', public_address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' },
      'body.network',
    ],
    ['a missing network', { public_address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' }, 'body.network'],
    ['a missing address', { network: 'SOLANA' }, 'body.public_address'],
    ['an empty address', { network: 'SOLANA', public_address: '' }, 'body.public_address'],
    ['a numeric address', { network: 'ETHEREUM', public_address: 123 }, 'body.public_address'],
    [
      'an empty name',
      { name: ' ', network: 'SOLANA', public_address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' },
      'body.name',
    ],
    [
      'a name over 100 characters',
      {
        name: 'n'.repeat(101),
        network: 'SOLANA',
        public_address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      },
      'body.name',
    ],
    [
      'a numeric name',
      { name: 7, network: 'SOLANA', public_address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' },
      'body.name',
    ],
  ])('refuses %s with 400', async (_label, body, path) => {
    const m = await newMerchant(server);
    expectFieldError(await addWallet(m, body), path);
    expect(await listWallets(m)).toEqual([]);
  });

  it('refuses unknown fields and non-object bodies with 400', async () => {
    const m = await newMerchant(server);
    for (const body of [
      { network: 'SOLANA', public_address: solanaKey(), label: 'x' },
      { network: 'SOLANA', public_address: solanaKey(), merchant_id: m.id },
      { network: 'SOLANA', public_address: solanaKey(), wallet_id: '00000000-0000-4000-8000-000000000000' },
      [],
      'SOLANA',
    ])
      expectErrorBody(await addWallet(m, body), 400, 'VALIDATION_ERROR');
    expectErrorBody(
      await server.api('POST', '/users/me/wallets', { token: m.token, rawBody: '{"network":' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(await listWallets(m)).toEqual([]);
  });

  it("never shows one merchant's wallets to another", async () => {
    const a = await newMerchant(server, { wallets: ['SOLANA', 'POLYGON', 'ETHEREUM'] });
    const b = await newMerchant(server);
    expect(await listWallets(a)).toHaveLength(3);
    expect(await listWallets(b)).toEqual([]);
    const own = await addWallet(b, { network: 'SOLANA', public_address: solanaKey() });
    expect((await listWallets(b)).map((w) => w.wallet_id)).toEqual([own.body.wallet_id]);
    expect((await listWallets(a)).map((w) => w.wallet_id)).not.toContain(own.body.wallet_id);
  });

  it('refuses every wallet route without a token', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    expectErrorBody(await server.api('GET', '/users/me/wallets'), 401, 'UNAUTHENTICATED');
    expectErrorBody(
      await server.api('POST', '/users/me/wallets', {
        body: { network: 'SOLANA', public_address: solanaKey() },
      }),
      401,
      'UNAUTHENTICATED',
    );
    expectErrorBody(
      await server.api('DELETE', `/users/me/wallets/${m.wallets.SOLANA}`),
      401,
      'UNAUTHENTICATED',
    );
    expect(await listWallets(m)).toHaveLength(1);
  });
});

describe('DELETE /users/me/wallets/{wallet_id}', () => {
  it('removes the wallet: 204, gone from the list, then 404; the address can be added again', async () => {
    const m = await newMerchant(server);
    const address = solanaKey();
    const keep = await addWallet(m, { network: 'SOLANA', public_address: solanaKey() });
    const wallet = await addWallet(m, { network: 'SOLANA', public_address: address });
    const res = await server.api('DELETE', `/users/me/wallets/${wallet.body.wallet_id}`, { token: m.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await listWallets(m)).map((w) => w.wallet_id)).toEqual([keep.body.wallet_id]);
    expectErrorBody(
      await server.api('DELETE', `/users/me/wallets/${wallet.body.wallet_id}`, { token: m.token }),
      404,
      'NOT_FOUND',
    );

    const again = await addWallet(m, { network: 'SOLANA', public_address: address });
    expect(again.status).toBe(201);
    expect(again.body.wallet_id).not.toBe(wallet.body.wallet_id);
    expect((await listWallets(m)).map((w) => w.wallet_id)).toEqual([
      keep.body.wallet_id,
      again.body.wallet_id,
    ]);
  });

  it('re-adding a removed EVM address in another spelling works too', async () => {
    const m = await newMerchant(server);
    const evm = getAddress(evmAddress());
    const first = await addWallet(m, { network: 'POLYGON', public_address: evm });
    expect(
      (await server.api('DELETE', `/users/me/wallets/${first.body.wallet_id}`, { token: m.token })).status,
    ).toBe(204);
    const again = await addWallet(m, { network: 'POLYGON', public_address: evm.toLowerCase() });
    expect(again.status).toBe(201);
    expect(again.body.public_address).toBe(evm);
  });

  it("answers 404 for another merchant's wallet and leaves it in place", async () => {
    const owner = await newMerchant(server, { wallets: ['SOLANA'] });
    const other = await newMerchant(server, { wallets: ['SOLANA'] });
    const walletId = owner.wallets.SOLANA!;
    expectErrorBody(
      await server.api('DELETE', `/users/me/wallets/${walletId}`, { token: other.token }),
      404,
      'NOT_FOUND',
    );
    expect((await listWallets(owner)).map((w) => w.wallet_id)).toEqual([walletId]);
    expect((await listWallets(other)).map((w) => w.wallet_id)).toEqual([other.wallets.SOLANA]);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    expectErrorBody(
      await server.api('DELETE', '/users/me/wallets/00000000-0000-4000-8000-000000000000', {
        token: m.token,
      }),
      404,
      'NOT_FOUND',
    );
    for (const id of ['not-a-uuid', '123', `${m.wallets.SOLANA}x`, "1' OR '1'='1"])
      expectFieldError(
        await server.api('DELETE', `/users/me/wallets/${encodeURIComponent(id)}`, { token: m.token }),
        'params.wallet_id',
      );
    expect(await listWallets(m)).toHaveLength(1);
  });

  it('refuses to remove a wallet that payable orders use (409); allows it once nothing can pay them', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const walletId = m.wallets.SOLANA!;
    const order = await requestSolanaOrder(server, m.token);
    expect(order.status, order.text).toBe(201);
    expect(order.body.status).toBe('PENDING');
    expect(order.body.merchantWalletId).toBe(walletId);

    for (const status of ['PENDING', 'CONFIRMING', 'UNDERPAID']) {
      await setOrderStatus(order.body.reference, status);
      expectErrorBody(
        await server.api('DELETE', `/users/me/wallets/${walletId}`, { token: m.token }),
        409,
        'CONFLICT',
      );
      expect((await listWallets(m)).map((w) => w.wallet_id)).toEqual([walletId]);
    }

    // Expired, but a late payment would still count: the wallet is still watched.
    await setOrderStatus(order.body.reference, 'EXPIRED');
    expectErrorBody(
      await server.api('DELETE', `/users/me/wallets/${walletId}`, { token: m.token }),
      409,
      'CONFLICT',
    );
    // Past the late-payment window: nothing can pay the order any more.
    await server.deps.db.sequelize.query(
      `UPDATE orders SET expires_at = now() - make_interval(secs => :late + 60) WHERE reference = :reference`,
      { replacements: { late: server.config.LATE_PAYMENT_WINDOW_SECONDS, reference: order.body.reference } },
    );
    expect((await server.api('DELETE', `/users/me/wallets/${walletId}`, { token: m.token })).status).toBe(
      204,
    );
    expect(await listWallets(m)).toEqual([]);

    // The past order keeps its wallet and recipient.
    const past = await server.api('GET', `/orders/${order.body.reference}`, { token: m.token });
    expect(past.status).toBe(200);
    expect(past.body.merchantWalletId).toBe(walletId);
    expect(past.body.recipient).toBe(order.body.recipient);

    // New orders no longer use the removed wallet.
    expectErrorBody(await requestSolanaOrder(server, m.token), 400, 'VALIDATION_ERROR');
    expectErrorBody(
      await requestSolanaOrder(server, m.token, { merchantWalletId: walletId }),
      404,
      'NOT_FOUND',
    );
  });

  it("is not blocked by another wallet's open orders", async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const spare = await addWallet(m, { network: 'SOLANA', public_address: solanaKey() });
    const order = await server.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '2.5', merchantWalletId: m.wallets.SOLANA },
    });
    expect(order.status, order.text).toBe(201);
    expect(
      (await server.api('DELETE', `/users/me/wallets/${spare.body.wallet_id}`, { token: m.token })).status,
    ).toBe(204);
    expectErrorBody(
      await server.api('DELETE', `/users/me/wallets/${m.wallets.SOLANA}`, { token: m.token }),
      409,
      'CONFLICT',
    );
  });
});

describe('migration 0018: one owner per address', () => {
  it('keeps the oldest registration still in use, removes the others and says so', async () => {
    const sequelize = new Sequelize(await createTestDatabase(), { logging: false });
    try {
      await migrate(sequelize);
      const notices: { message: string; data?: Record<string, unknown> }[] = [];
      const context = {
        query: (sql: string) => sequelize.query(sql),
        notice: (message: string, data?: Record<string, unknown>) => notices.push({ message, data }),
      };
      await walletOwnersMigration.down({ context, name: '0018-wallet-owners-and-claims' });
      // Three merchants registered one address (before one-owner wallets); the first removed it.
      const merchants = await sequelize.query<{ id: string; email: string }>(
        `INSERT INTO merchants (email) VALUES
        ('first@example.com'), ('second@example.com'), ('third@example.com') RETURNING id, email`,
        { type: QueryTypes.SELECT },
      );
      const id = (email: string) => merchants.find((m) => m.email === email)!.id;
      await sequelize.query(`INSERT INTO wallets (merchant_id, network, public_address, created_at, deleted_at) VALUES
        ('${id('first@example.com')}', 'SOLANA', 'Shared1111', now() - interval '3 days', now() - interval '2 days'),
        ('${id('second@example.com')}', 'SOLANA', 'Shared1111', now() - interval '1 day', NULL),
        ('${id('third@example.com')}', 'SOLANA', 'Shared1111', now() - interval '1 hour', NULL),
        ('${id('third@example.com')}', 'POLYGON', 'Shared1111', now() - interval '1 hour', NULL)`);
      await walletOwnersMigration.up({ context, name: '0018-wallet-owners-and-claims' });

      const owners = await sequelize.query<{ network: string; merchant_id: string }>(
        'SELECT network, merchant_id FROM wallet_owners ORDER BY network',
        { type: QueryTypes.SELECT },
      );
      expect(owners).toEqual([
        { network: 'POLYGON', merchant_id: id('third@example.com') },
        { network: 'SOLANA', merchant_id: id('second@example.com') },
      ]);
      const live = await sequelize.query<{ merchant_id: string; network: string }>(
        'SELECT merchant_id, network FROM wallets WHERE deleted_at IS NULL ORDER BY network',
        { type: QueryTypes.SELECT },
      );
      expect(live).toEqual([
        { merchant_id: id('third@example.com'), network: 'POLYGON' },
        { merchant_id: id('second@example.com'), network: 'SOLANA' },
      ]);
      expect(notices).toHaveLength(1);
      expect(notices[0]!.message).toMatch(
        new RegExp(
          `merchant ${id('third@example.com')} removed: SOLANA Shared1111 belongs to merchant ${id('second@example.com')}`,
        ),
      );
    } finally {
      await sequelize.close();
    }
  });
});
