import { randomBytes, randomUUID } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../server/lib/base58';
import { insertCreatedOrders, type NewOrderRow } from '../../server/orders/insert-created-order';
import { expectErrorBody, newMerchant, startTestServer, useTestServer } from '../support/test-server';
import type { ApiResponse, TestServer } from '../support/test-server';

type Network = 'SOLANA' | 'POLYGON' | 'ETHEREUM';
type Body = Record<string, unknown>;

const BASE = 'http://pay.example.test';
const USDT_SOLANA = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const USDT_POLYGON = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
const USDT_ETHEREUM = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const solanaAddress = () => Keypair.generate().publicKey.toBase58();
const evmAddress = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const solanaSignature = () => encodeBase58(randomBytes(64));
const evmTxHash = () => `0x${randomBytes(32).toString('hex')}`;

const server = useTestServer({ API_RATE_LIMIT_PER_MINUTE: '100000' });

/**
 * A merchant of its own with a fresh receiving address per network: amounts are made unique per
 * recipient across merchants, so shared addresses would let tests shift each other's amounts.
 */
async function merchant(networks: Network[] = ['SOLANA'], on: TestServer = server) {
  const m = await newMerchant(on);
  const api = (
    method: string,
    path: string,
    opts: { body?: unknown; headers?: Record<string, string> } = {},
  ) => on.api(method, path, { token: m.token, ...opts });
  const addWallet = async (network: Network) => {
    const address = network === 'SOLANA' ? solanaAddress() : evmAddress();
    const res = await api('POST', '/users/me/wallets', { body: { network, public_address: address } });
    expect(res.status).toBe(201);
    return { id: res.body.wallet_id as string, address };
  };
  const wallets: Partial<Record<Network, { id: string; address: string }>> = {};
  for (const network of networks) wallets[network] = await addWallet(network);
  /** POST /orders, USDT on Solana unless the body says otherwise. */
  const create = (body: Body, headers?: Record<string, string>) =>
    api('POST', '/orders', { body: { network: 'SOLANA', token: 'USDT', ...body }, headers });
  const createOk = async (body: Body) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  const audit = async (reference: string) => {
    const res = await api('GET', `/orders/${reference}/audit`);
    expect(res.status).toBe(200);
    return res.body.items as { type: string; actor: string; data: Record<string, unknown> }[];
  };
  return {
    ...m,
    wallets: wallets as Record<Network, { id: string; address: string }>,
    api,
    addWallet,
    create,
    createOk,
    audit,
  };
}
type Merchant = Awaited<ReturnType<typeof merchant>>;

/** A 400 VALIDATION_ERROR whose details name `path`. */
function expectInvalid(res: ApiResponse, path: string) {
  expectErrorBody(res, 400, 'VALIDATION_ERROR');
  expect(
    (res.body as { error: { details?: { path: string }[] } }).error.details?.map((d) => d.path),
  ).toContain(path);
}

describe('POST /orders', () => {
  let m: Merchant;
  beforeAll(async () => {
    m = await merchant(['SOLANA', 'POLYGON', 'ETHEREUM']);
  });

  describe('by amount', () => {
    it('returns 201 with every order field, amount normalized, links built from PUBLIC_BASE_URL', async () => {
      const res = await m.create({
        amount: '10.5',
        description: 'Order #42',
        metadata: { orderId: 42, tags: ['a', 'b'], nested: { ok: true } },
        webhookUrl: 'https://shop.example.com/hooks/stablepay',
        messengerChatId: '-100123456',
      });
      expect(res.status).toBe(201);
      const o = res.body;
      const ref = o.reference as string;
      const payUrl = `solana:${m.wallets.SOLANA.address}?amount=10.5&spl-token=${USDT_SOLANA}&reference=${ref}&label=Test%20Shop&message=Order%20%2342`;
      expect(o).toEqual({
        reference: ref,
        status: 'PENDING',
        network: 'SOLANA',
        token: 'USDT',
        decimals: 6,
        amount: '10.500000',
        amountReceived: '0.000000',
        amountRefunded: '0.000000',
        amountRefundable: '0.000000',
        amountUnique: true,
        tokenMintOrContract: USDT_SOLANA,
        recipient: m.wallets.SOLANA.address,
        quoteCurrency: null,
        quoteAmount: null,
        quotedAt: null,
        fxRate: null,
        fxRateLabel: null,
        fxSource: null,
        payUrl,
        qrData: payUrl,
        qrImageUrl: `${BASE}/pay/${ref}/qr.svg`,
        checkoutUrl: `${BASE}/checkout/${ref}`,
        txRequestUrl: `solana:${BASE}/pay/tx-request/${ref}`,
        expiresAt: expect.stringMatching(ISO),
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        txId: null,
        paidAt: null,
        paidLate: false,
        webhookUrl: 'https://shop.example.com/hooks/stablepay',
        returnUrl: null,
        messengerChatId: '-100123456',
        merchantWalletId: m.wallets.SOLANA.id,
        description: 'Order #42',
        metadata: { orderId: 42, tags: ['a', 'b'], nested: { ok: true } },
        // One option: the order's own fields.
        paymentOptions: [
          {
            network: 'SOLANA',
            token: 'USDT',
            tokenMintOrContract: USDT_SOLANA,
            decimals: 6,
            recipient: m.wallets.SOLANA.address,
            amount: '10.500000',
            amountUnique: true,
            amountDue: '10.500000',
            payUrl,
            qrData: payUrl,
            qrImageUrl: `${BASE}/pay/${ref}/qr.svg`,
            txRequestUrl: `solana:${BASE}/pay/tx-request/${ref}`,
          },
        ],
        paidWith: null,
        customerEmail: null,
        customerLanguage: null,
        subscriptionId: null,
        period: null,
        source: 'api',
        // Made with the merchant's login token: its owner member.
        createdBy: { memberId: expect.any(String), email: m.email },
        kind: 'order',
        resource: null,
        payer: null,
      });
      expect(Date.parse(o.expiresAt) - Date.parse(o.createdAt)).toBe(900_000);
      expect(Math.abs(Date.parse(o.createdAt) - Date.now())).toBeLessThan(60_000);
    });

    it('gives each order a fresh base58 32-byte reference', async () => {
      const a = await m.createOk({ amount: '1' });
      const b = await m.createOk({ amount: '1' });
      for (const ref of [a.reference, b.reference]) {
        const key = new PublicKey(ref);
        expect(key.toBase58()).toBe(ref);
        expect(key.toBytes()).toHaveLength(32);
      }
      expect(a.reference).not.toBe(b.reference);
    });

    it('accepts expiresInSeconds from 60 to 86400 and refuses values outside', async () => {
      for (const seconds of [60, 86400]) {
        const o = await m.createOk({ amount: '2', expiresInSeconds: seconds });
        expect(Date.parse(o.expiresAt) - Date.parse(o.createdAt)).toBe(seconds * 1000);
      }
      for (const seconds of [59, 86401, 120.5, '900'])
        expectInvalid(await m.create({ amount: '2', expiresInSeconds: seconds }), 'body.expiresInSeconds');
    });

    it('refuses metadata over 4 KB', async () => {
      const ok = await m.create({ amount: '3', metadata: { blob: 'x'.repeat(4000) } });
      expect(ok.status).toBe(201);
      expectInvalid(await m.create({ amount: '3', metadata: { blob: 'x'.repeat(4100) } }), 'body.metadata');
      expectInvalid(await m.create({ amount: '3', metadata: ['not', 'an', 'object'] }), 'body.metadata');
    });

    it.each([['0'], ['-1'], ['1.1234567'], ['abc'], [10], ['1e5'], [''], ['0.000000'], [null]])(
      'refuses amount %j with details at body.amount',
      async (amount) => {
        expectInvalid(await m.create({ amount }), 'body.amount');
      },
    );

    it('refuses unknown body fields (strict body)', async () => {
      const res = await m.create({ amount: '1', amout: '1' });
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
      expect(res.text).toContain('amout');
    });

    it('refuses a bad network or token', async () => {
      expectInvalid(await m.create({ amount: '1', network: 'solana' }), 'body.network');
      expectInvalid(await m.create({ amount: '1', token: 'DAI' }), 'body.token');
    });
  });

  describe('by quote', () => {
    // 100 / 5.25 and 50 / 0.92 = 54.3478260869...: both rounded up to the token's 6 decimals.
    it.each([
      { quoteCurrency: 'BRL', quoteAmount: '100', amount: '19.047620', fxRate: '5.25', label: '5.250000' },
      { quoteCurrency: 'EUR', quoteAmount: '50', amount: '54.347827', fxRate: '0.92', label: '0.920000' },
    ])('converts $quoteCurrency at the static rate, rounding up', async (c) => {
      const o = await m.createOk({ quoteCurrency: c.quoteCurrency, quoteAmount: c.quoteAmount });
      expect(o).toMatchObject({
        amount: c.amount,
        quoteCurrency: c.quoteCurrency,
        quoteAmount: `${c.quoteAmount}.00`,
        fxRate: c.fxRate,
        fxRateLabel: `1 USDT = ${c.label} ${c.quoteCurrency}`,
        fxSource: 'static',
        quotedAt: expect.stringMatching(ISO),
      });
      expect(o.payUrl).toContain(`?amount=${c.amount.replace(/0+$/, '')}&`);
    });

    it.each(['USD', 'GBP', 'brl'])('refuses the unsupported currency %s', async (quoteCurrency) => {
      expectInvalid(await m.create({ quoteCurrency, quoteAmount: '100' }), 'body.quoteCurrency');
    });

    it('refuses both amount and quote, half a quote, and neither', async () => {
      expectInvalid(await m.create({ amount: '1', quoteCurrency: 'BRL', quoteAmount: '100' }), 'body.amount');
      expectInvalid(await m.create({ quoteCurrency: 'BRL' }), 'body.quoteAmount');
      expectInvalid(await m.create({ quoteAmount: '100' }), 'body.quoteCurrency');
      expectInvalid(await m.create({}), 'body.amount');
      expectInvalid(await m.create({ quoteCurrency: 'BRL', quoteAmount: '0' }), 'body.quoteAmount');
    });
  });

  describe('USDC', () => {
    it('is a validation error when USDC_MINT_SOLANA is not set', async () => {
      const res = await m.create({ token: 'USDC', amount: '5' });
      expectInvalid(res, 'body.token');
      expect(res.body.error.message).toMatch(/USDC/);
    });

    describe('with USDC_MINT_SOLANA set', () => {
      const usdcMint = solanaAddress();
      let usdcServer: TestServer;
      let u: Merchant;
      beforeAll(async () => {
        // Same database connection: model classes are process-wide, a second pool would rebind them.
        usdcServer = await startTestServer(
          { USDC_MINT_SOLANA: usdcMint },
          { db: { ...server.deps.db, close: async () => {} } },
        );
        u = await merchant(['SOLANA', 'POLYGON'], usdcServer);
      });
      afterAll(() => usdcServer?.stop());

      it('creates USDC orders whose mint, payUrl and QR use the configured mint', async () => {
        const o = await u.createOk({ token: 'USDC', amount: '5' });
        expect(o.token).toBe('USDC');
        expect(o.tokenMintOrContract).toBe(usdcMint);
        expect(o.payUrl).toBe(
          `solana:${u.wallets.SOLANA.address}?amount=5&spl-token=${usdcMint}&reference=${o.reference}&label=Test%20Shop`,
        );
        expect(o.qrData).toBe(o.payUrl);
        const quoted = await u.createOk({ token: 'USDC', quoteCurrency: 'BRL', quoteAmount: '100' });
        expect(quoted.fxRateLabel).toBe('1 USDC = 5.250000 BRL');
        expect(quoted.amount).toBe('19.047620');
      });

      it('still refuses USDC on POLYGON', async () => {
        expectInvalid(await u.create({ network: 'POLYGON', token: 'USDC', amount: '5' }), 'body.token');
      });
    });
  });

  describe('EVM networks', () => {
    it.each([
      ['POLYGON', USDT_POLYGON, 137],
      ['ETHEREUM', USDT_ETHEREUM, 1],
    ] as const)('builds an EIP-681 payUrl on %s', async (network, contract, chainId) => {
      const o = await m.createOk({ network, amount: '25.5' });
      const payUrl = `ethereum:${contract}@${chainId}/transfer?address=${m.wallets[network].address}&uint256=25500000`;
      expect(o).toMatchObject({
        network,
        token: 'USDT',
        amount: '25.500000',
        tokenMintOrContract: contract,
        recipient: m.wallets[network].address,
        merchantWalletId: m.wallets[network].id,
        payUrl,
        qrData: payUrl,
        txRequestUrl: null,
        checkoutUrl: `${BASE}/checkout/${o.reference}`,
      });
      expect(new PublicKey(o.reference).toBase58()).toBe(o.reference);
    });
  });

  describe('receiving wallet', () => {
    it('needs a wallet for the network', async () => {
      const solanaOnly = await merchant(['SOLANA']);
      expectInvalid(await solanaOnly.create({ network: 'POLYGON', amount: '1' }), 'body.network');
    });

    it('refuses a wallet of another merchant (404), of another network (400), or unknown (404)', async () => {
      const other = await merchant(['SOLANA']);
      expectErrorBody(
        await m.create({ amount: '1', merchantWalletId: other.wallets.SOLANA.id }),
        404,
        'NOT_FOUND',
      );
      expectErrorBody(await m.create({ amount: '1', merchantWalletId: randomUUID() }), 404, 'NOT_FOUND');
      expectInvalid(
        await m.create({ amount: '1', merchantWalletId: m.wallets.POLYGON.id }),
        'body.merchantWalletId',
      );
      expectInvalid(await m.create({ amount: '1', merchantWalletId: 'not-a-uuid' }), 'body.merchantWalletId');
    });

    it("uses the wallet asked for, else the merchant's first wallet for the network", async () => {
      const two = await merchant(['SOLANA']);
      const second = await two.addWallet('SOLANA');
      const explicit = await two.createOk({ amount: '1', merchantWalletId: second.id });
      expect(explicit).toMatchObject({ merchantWalletId: second.id, recipient: second.address });
      expect(explicit.payUrl).toMatch(new RegExp(`^solana:${second.address}\\?`));
      const byDefault = await two.createOk({ amount: '1' });
      expect(byDefault).toMatchObject({
        merchantWalletId: two.wallets.SOLANA.id,
        recipient: two.wallets.SOLANA.address,
      });
    });
  });

  describe('unique amounts', () => {
    it('adds a base unit when an open order to the same wallet has the amount, and audits it', async () => {
      const u = await merchant(['SOLANA', 'POLYGON']);
      const first = await u.createOk({ amount: '10' });
      const second = await u.createOk({ amount: '10' });
      expect(first.amount).toBe('10.000000');
      expect(second.amount).toBe('10.000001');
      expect(second.payUrl).toContain('?amount=10.000001&');
      const [created] = await u.audit(second.reference);
      expect(created).toMatchObject({ type: 'order.created', actor: 'member' });
      expect(created!.data).toMatchObject({ amount: '10.000001', amountAdjustedFrom: '10.000000' });
      expect((await u.audit(first.reference))[0]!.data).not.toHaveProperty('amountAdjustedFrom');
      // Another wallet (here: another network) is a separate space of amounts.
      const evm = await u.createOk({ network: 'POLYGON', amount: '10' });
      expect(evm.payUrl).toMatch(/&uint256=10000000$/);
    });

    it('keeps concurrent creations for one amount unique', async () => {
      const u = await merchant();
      const orders = await Promise.all(Array.from({ length: 5 }, () => u.createOk({ amount: '20' })));
      expect(orders.map((o) => o.amount).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `20.00000${i}`));
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same key and body', async () => {
      const u = await merchant();
      const key = randomUUID();
      const first = await u.create({ amount: '7' }, { 'Idempotency-Key': key });
      const again = await u.create({ amount: '7' }, { 'Idempotency-Key': key });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const list = await u.api('GET', '/users/me/orders');
      expect(list.body.total).toBe(1);
    });

    it('is a 409 with the same key and a different body', async () => {
      const u = await merchant();
      const key = randomUUID();
      expect((await u.create({ amount: '7' }, { 'Idempotency-Key': key })).status).toBe(201);
      expectErrorBody(await u.create({ amount: '8' }, { 'Idempotency-Key': key }), 409, 'CONFLICT');
    });

    it('gives 10 concurrent requests with one key the one same order', async () => {
      const u = await merchant();
      const key = randomUUID();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => u.create({ amount: '9' }, { 'Idempotency-Key': key })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
      expect(new Set(results.map((r) => r.body.reference)).size).toBe(1);
      expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
      const list = await u.api('GET', '/users/me/orders');
      expect(list.body.total).toBe(1);
      expect(list.body.items[0].amount).toBe('9.000000');
    });

    it('keeps keys per merchant', async () => {
      const [a, b] = [await merchant(), await merchant()];
      const key = randomUUID();
      const ra = await a.create({ amount: '7' }, { 'Idempotency-Key': key });
      const rb = await b.create({ amount: '7' }, { 'Idempotency-Key': key });
      expect([ra.status, rb.status]).toEqual([201, 201]);
      expect(rb.headers.get('idempotent-replayed')).toBeNull();
      expect(rb.body.reference).not.toBe(ra.body.reference);
      expect(rb.body.merchantWalletId).toBe(b.wallets.SOLANA.id);
    });
  });
});

describe('concurrent creations, written together', () => {
  /** Statements that wrote more than one order so far, and the orders they wrote. */
  async function sharedStatements() {
    const { values } = await server.deps.metrics.orderWriteBatch.get();
    const value = (name: string, le?: number) =>
      values.find((v) => v.metricName === name && (le === undefined || v.labels.le === le))?.value ?? 0;
    const name = 'stablepay_order_write_batch_size';
    return { statements: value(`${name}_count`) - value(`${name}_bucket`, 1), orders: value(`${name}_sum`) };
  }

  it('gives each order, its audit entry, event and delivery exactly what writing it alone gives', async () => {
    const u = await merchant(['SOLANA', 'POLYGON']);
    const before = await sharedStatements();
    const bodies = Array.from({ length: 30 }, (_, i) => ({
      network: i % 3 ? 'SOLANA' : 'POLYGON',
      // Every fifth shares one price: one statement never reserves an amount twice.
      amount: i % 5 === 0 ? '7' : `${i + 1}.25`,
      description: `it's "order" {${i}}, \\ with, commas`,
      metadata: { i, note: 'quote " backslash \\ brace } comma , ünïcödé', nested: [null, { a: 1 }] },
      ...(i % 4 === 0 ? { webhookUrl: 'https://shop.example.com/hooks/stablepay' } : {}),
    }));
    const created = await Promise.all(bodies.map((body) => u.createOk(body)));
    const after = await sharedStatements();
    expect(after.statements).toBeGreaterThan(before.statements);

    for (const [i, order] of created.entries()) {
      expect(order.description).toBe(bodies[i]!.description);
      expect(order.metadata).toEqual(bodies[i]!.metadata);
      expect(order.webhookUrl).toBe(bodies[i]!.webhookUrl ?? null);
      expect((await u.api('GET', `/orders/${order.reference}`)).body).toEqual(order);
    }
    // The shared price became distinct amounts per wallet (0.000001 apart).
    for (const network of ['SOLANA', 'POLYGON']) {
      const sevens = created
        .filter((o) => o.network === network && o.amount.startsWith('7.'))
        .map((o) => o.amount);
      expect(new Set(sevens).size).toBe(sevens.length);
    }
    const [rows] = (await server.deps.db.sequelize.query(
      `SELECT o.reference,
              (SELECT count(*)::int FROM audit_entries a WHERE a.order_id = o.id AND a.type = 'order.created') AS audits,
              (SELECT count(*)::int FROM events e WHERE e.order_id = o.id) AS events,
              (SELECT count(*)::int FROM event_deliveries d JOIN events e ON e.id = d.event_id
                WHERE e.order_id = o.id AND d.channel = 'webhook'
                  AND d.target = 'https://shop.example.com/hooks/stablepay') AS deliveries,
              (SELECT body FROM events e WHERE e.order_id = o.id) AS body,
              (SELECT data FROM audit_entries a WHERE a.order_id = o.id) AS audit
         FROM orders o WHERE o.merchant_id = :id`,
      { replacements: { id: u.id } },
    )) as [
      { reference: string; audits: number; events: number; deliveries: number; body: string; audit: Body }[],
      unknown,
    ];
    expect(rows).toHaveLength(30);
    for (const row of rows) {
      const i = created.findIndex((o) => o.reference === row.reference);
      expect([row.audits, row.events, row.deliveries]).toEqual([1, 1, i % 4 === 0 ? 1 : 0]);
      expect(JSON.parse(row.body)).toMatchObject({ type: 'order.created', data: { order: created[i] } });
      expect(row.audit).toMatchObject({ status: 'PENDING', amount: created[i]!.amount });
    }
    expect((await u.api('GET', '/users/me/orders?per_page=1')).body.total).toBe(30);
  });

  it('keeps Idempotency-Keys exact across shared statements: one order per key, replays for the rest', async () => {
    const u = await merchant(['SOLANA']);
    const before = await sharedStatements();
    const keys = Array.from({ length: 12 }, (_, i) => `batch-key-${i}-${randomUUID()}`);
    // Each key sent three times at once (same body), all 36 requests concurrently.
    const requests = keys.flatMap((key, i) =>
      [0, 1, 2].map(() => u.create({ amount: `${i + 1}.5`, description: key }, { 'idempotency-key': key })),
    );
    const answers = await Promise.all(requests);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect((await sharedStatements()).statements).toBeGreaterThan(before.statements);
    for (const [i, key] of keys.entries()) {
      const mine = answers.slice(i * 3, i * 3 + 3);
      expect(new Set(mine.map((a) => a.body.reference)).size).toBe(1);
      expect(mine.every((a) => a.body.description === key)).toBe(true);
      expect(mine.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    }
    const [[stored]] = (await server.deps.db.sequelize.query(
      `SELECT (SELECT count(*)::int FROM orders WHERE merchant_id = :id) AS orders,
              (SELECT count(*)::int FROM idempotency_keys WHERE merchant_id = :id) AS keys`,
      { replacements: { id: u.id } },
    )) as [{ orders: number; keys: number }[], unknown];
    expect(stored).toEqual({ orders: 12, keys: 12 });
  });

  it('refuses, within a shared statement, exactly the orders whose token ended, wallet went, or amount or key is taken', async () => {
    const u = await merchant(['SOLANA']);
    const gone = await merchant(['SOLANA']);
    const db = server.deps.db.sequelize;
    const [[wallet]] = (await db.query('SELECT id, public_address FROM wallets WHERE merchant_id = :id', {
      replacements: { id: u.id },
    })) as [{ id: string; public_address: string }[], unknown];
    const [[goneWallet]] = (await db.query('SELECT id, public_address FROM wallets WHERE merchant_id = :id', {
      replacements: { id: gone.id },
    })) as [{ id: string; public_address: string }[], unknown];
    await db.query('UPDATE wallets SET deleted_at = now() WHERE id = :id', {
      replacements: { id: goneWallet!.id },
    });
    const now = new Date();
    const rowsFor = (
      merchantId: string,
      w: { id: string; public_address: string },
      amount: bigint,
      ver = 0,
    ) => {
      const reference = encodeBase58(randomBytes(32));
      const eventId = `evt_${randomBytes(16).toString('hex')}`;
      const order: NewOrderRow = {
        reference,
        merchantId,
        walletId: w.id,
        network: 'SOLANA',
        token: 'USDT',
        tokenMint: USDT_SOLANA,
        tokenDecimals: 6,
        recipient: w.public_address,
        amountUnits: amount,
        amountReceivedUnits: 0n,
        amountUnique: true,
        amountRefundedUnits: 0n,
        quoteCurrency: null,
        quoteUnits: null,
        fxRate: null,
        fxSource: null,
        quotedAt: null,
        status: 'PENDING',
        description: null,
        metadata: null,
        webhookUrl: null,
        returnUrl: null,
        messengerChatId: null,
        txId: null,
        paidAt: null,
        paidLate: false,
        expiresAt: new Date(now.getTime() + 900_000),
        supersededAt: null,
        paymentOptions: null,
        sumDecimals: 6,
        paidWith: null,
        customerEmail: null,
        customerLanguage: null,
        source: 'api',
        createdBy: null,
        kind: 'order',
        resource: null,
        payer: null,
        subscriptionId: null,
        periodIndex: null,
        periodAttempt: null,
        periodStart: null,
        periodEnd: null,
        createdAt: now,
        updatedAt: now,
      };
      return {
        order,
        actor: 'system' as const,
        audit: { status: 'PENDING' },
        event: { id: eventId, body: JSON.stringify({ id: eventId }) },
        targets: [],
        actingMember: { id: merchantId, tokenVersion: ver }, // an owner has its account's id
        reservation: { heldUntil: new Date(now.getTime() + 86_400_000) },
      };
    };
    const taken = rowsFor(u.id, wallet!, 5_000_000n);
    expect(await insertCreatedOrders(server.deps, [taken, rowsFor(u.id, wallet!, 5_100_000n)])).toEqual([
      { inserted: true, orderId: expect.any(String) },
      { inserted: true, orderId: expect.any(String) },
    ]);
    const claiming = (rows: ReturnType<typeof rowsFor>, key: string) => ({
      ...rows,
      idempotency: {
        scope: { merchantId: u.id, key, requestHash: 'h' },
        response: { status: 201, body: { reference: rows.order.reference } },
      },
    });
    const claimed = claiming(rowsFor(u.id, wallet!, 5_200_000n), 'held-key');
    expect(await insertCreatedOrders(server.deps, [claimed])).toEqual([
      { inserted: true, orderId: expect.any(String) },
    ]);
    const outcomes = await insertCreatedOrders(server.deps, [
      rowsFor(u.id, wallet!, 6_000_000n),
      rowsFor(u.id, wallet!, 6_100_000n, 1), // a token version the merchant no longer has
      rowsFor(gone.id, goneWallet!, 6_200_000n), // a wallet removed since it was read
      rowsFor(u.id, wallet!, 5_000_000n), // an amount another payable order holds
      claiming(rowsFor(u.id, wallet!, 6_300_000n), 'held-key'), // a key another request claimed
      claiming(rowsFor(u.id, wallet!, 6_400_000n), 'fresh-key'),
    ]);
    expect(outcomes).toEqual([
      { inserted: true, orderId: expect.any(String) },
      { inserted: false, blockedBy: 'token' },
      { inserted: false, blockedBy: 'wallet' },
      { inserted: false, blockedBy: 'amount' },
      { inserted: false, blockedBy: 'key' },
      { inserted: true, orderId: expect.any(String) },
    ]);
    const [claims] = (await db.query(
      'SELECT key, response_body FROM idempotency_keys WHERE merchant_id = :id ORDER BY key',
      { replacements: { id: u.id } },
    )) as [{ key: string; response_body: unknown }[], unknown];
    expect(claims).toEqual([
      { key: 'fresh-key', response_body: { reference: expect.any(String) } },
      { key: 'held-key', response_body: { reference: claimed.order.reference } },
    ]);
    // Nothing of the refused orders stays: no order, no reservation.
    const [[left]] = (await db.query(
      `SELECT (SELECT count(*)::int FROM orders WHERE merchant_id IN (:ids)) AS orders,
              (SELECT count(*)::int FROM amount_reservations WHERE recipient IN (:addresses)) AS reservations`,
      {
        replacements: {
          ids: [u.id, gone.id],
          addresses: [wallet!.public_address, goneWallet!.public_address],
        },
      },
    )) as [{ orders: number; reservations: number }[], unknown];
    // (The reservation of the order refused for its key is released by its caller, as alone.)
    expect(left).toEqual({ orders: 5, reservations: 6 });
  });
});

describe('GET /users/me/orders', () => {
  let m: Merchant;
  let refs: string[]; // oldest first: 3 SOLANA, then 2 POLYGON
  beforeAll(async () => {
    m = await merchant(['SOLANA', 'POLYGON']);
    refs = [];
    for (const network of ['SOLANA', 'SOLANA', 'SOLANA', 'POLYGON', 'POLYGON'])
      refs.push((await m.createOk({ network, amount: '1' })).reference);
  });
  const newestFirst = () => [...refs].reverse();
  const list = (query: string) => m.api('GET', `/users/me/orders${query}`);

  it('pages with defaults page 1, per_page 20, total, newest first', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, per_page: 20, total: 5 });
    expect(res.body).not.toHaveProperty('nextCursor');
    expect(res.body.items.map((o: { reference: string }) => o.reference)).toEqual(newestFirst());
    const page2 = await list('?page=2&per_page=2');
    expect(page2.body).toMatchObject({ page: 2, per_page: 2, total: 5 });
    expect(page2.body.items.map((o: { reference: string }) => o.reference)).toEqual(
      newestFirst().slice(2, 4),
    );
  });

  it.each(['per_page=51', 'per_page=0', 'page=0', 'page=-1', 'per_page=abc'])('refuses %s', async (q) => {
    expectInvalid(await list(`?${q}`), `query.${q.split('=')[0]}`);
  });

  it('walks every order exactly once in cursor mode, newest first', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 1; ; pages++) {
      expect(pages).toBeLessThanOrEqual(3);
      const res = await list(`?per_page=2&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(200);
      expect(res.body.per_page).toBe(2);
      expect(res.body).not.toHaveProperty('total');
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((o: { reference: string }) => o.reference));
      if (res.body.nextCursor === null) break;
      expect(typeof res.body.nextCursor).toBe('string');
      cursor = res.body.nextCursor;
    }
    expect(seen).toEqual(newestFirst());
  });

  it('walks an index to a page, also for a merchant that grew since the last ANALYZE', async () => {
    const big = await merchant();
    const first = await big.createOk({ amount: '1' });
    const db = server.deps.db.sequelize;
    await db.query('ANALYZE orders'); // the planner last saw this merchant with one order ...
    await db.query(
      `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient, amount_units,
                           status, expires_at, created_at, updated_at, amount_unique)
       SELECT translate(md5(:ref || g), '0', 'z'), o.merchant_id, o.wallet_id, o.network, o.token, o.token_mint,
              o.recipient, 1000000 + g, 'EXPIRED', o.expires_at, o.created_at, now(), false
         FROM generate_series(1, 5000) AS g, (SELECT * FROM orders WHERE reference = :ref) AS o`,
      { replacements: { ref: first.reference } },
    ); // ... and it has 5,001 now: pages must not fetch and sort them all
    const plan = async (sql: string) =>
      ((await db.query(`EXPLAIN ${sql}`, { replacements: { id: big.id } }))[0] as { 'QUERY PLAN': string }[])
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    for (const page of [
      'SELECT * FROM orders WHERE merchant_id = :id ORDER BY id DESC LIMIT 20 OFFSET 0',
      'SELECT * FROM orders WHERE merchant_id = :id AND id < 9223372036854775807 ORDER BY id DESC LIMIT 21',
    ]) {
      const shown = await plan(page);
      expect(shown, shown).toMatch(/Index Scan using orders_merchant_idx/);
      expect(shown, shown).not.toMatch(/Sort/);
    }
    const res = await big.api('GET', '/users/me/orders?per_page=20');
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(5001);
    expect(res.body.items).toHaveLength(20);
  });

  it("keeps page totals equal to the orders' own counts through concurrent creations and status changes", async () => {
    const busy = await merchant(['SOLANA', 'POLYGON']);
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        busy.createOk({ network: i % 3 ? 'SOLANA' : 'POLYGON', amount: `${i + 1}.5` }),
      ),
    );
    // Status changes from several connections at once, as expiry and settlement make them.
    const db = server.deps.db.sequelize;
    await Promise.all(
      created.slice(0, 16).map((o: { reference: string }, i: number) =>
        db.query('UPDATE orders SET status = :status WHERE reference = :ref', {
          replacements: { ref: o.reference, status: i % 2 ? 'EXPIRED' : 'CONFIRMING' },
        }),
      ),
    );
    const [counted] = (await db.query(
      `SELECT status, network, count(*)::int AS n FROM orders WHERE merchant_id = :id GROUP BY status, network`,
      { replacements: { id: busy.id } },
    )) as [{ status: string; network: string; n: number }[], unknown];
    for (const { status, network, n } of counted) {
      const res = await busy.api('GET', `/users/me/orders?status=${status}&network=${network}&per_page=1`);
      expect(res.body.total, `${status} ${network}`).toBe(n);
    }
    expect((await busy.api('GET', '/users/me/orders?per_page=1')).body.total).toBe(24);
    expect((await busy.api('GET', '/users/me/orders?status=PENDING&per_page=1')).body.total).toBe(8);
  });

  it('refuses a cursor it did not issue, and a cursor with a page', async () => {
    const forged = [
      'garbage',
      Buffer.from(JSON.stringify({ hello: 'world' })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, id: 'abc' })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, id: '99999999999999999999' })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, id: '9999999999999999999' })).toString('base64url'), // > bigint
    ];
    for (const cursor of forged)
      expectInvalid(await list(`?cursor=${encodeURIComponent(cursor)}`), 'query.cursor');
    // A real cursor with a page is a contradiction; an empty cursor with a page is page mode (DESIGN).
    const first = await list('?cursor=&per_page=2');
    expectInvalid(await list(`?cursor=${encodeURIComponent(first.body.nextCursor)}&page=2`), 'query.page');
    const paged = await list('?cursor=&page=1&per_page=2');
    expect(paged.status).toBe(200);
    expect(paged.body).toMatchObject({ page: 1, per_page: 2 });
    expect(paged.body.total).toBeGreaterThanOrEqual(2);
  });

  it('filters by status and network', async () => {
    const submitted = await m.api('POST', `/orders/${refs[0]}/submit-tx`, {
      body: { txId: solanaSignature() },
    });
    expect(submitted.status).toBe(202);
    const pending = await list('?status=PENDING');
    expect(pending.body.total).toBe(4);
    expect(pending.body.items.map((o: { reference: string }) => o.reference)).not.toContain(refs[0]);
    const confirming = await list('?status=CONFIRMING&cursor=');
    expect(confirming.body.items.map((o: { reference: string }) => o.reference)).toEqual([refs[0]]);
    const polygon = await list('?network=POLYGON');
    expect(polygon.body.items.map((o: { reference: string }) => o.reference)).toEqual([refs[4], refs[3]]);
    // Totals come from the counts the database keeps: they follow status changes and filters.
    expect((await list('?status=CONFIRMING')).body.total).toBe(1);
    expect(polygon.body.total).toBe(2);
    expect((await list('?status=CONFIRMING&network=POLYGON')).body.total).toBe(0);
    expect((await list('')).body.total).toBe(5);
    expectInvalid(await list('?status=pending'), 'query.status');
    expectInvalid(await list('?network=BITCOIN'), 'query.network');
  });

  it("never shows another merchant's orders", async () => {
    const other = await merchant();
    const res = await other.api('GET', '/users/me/orders');
    expect(res.body).toMatchObject({ total: 0, items: [] });
    const cursor = await other.api('GET', '/users/me/orders?cursor=');
    expect(cursor.body).toMatchObject({ items: [], nextCursor: null });
  });
});

describe('GET /orders/{reference}', () => {
  it("returns the merchant's own order and hides everyone else's", async () => {
    const m = await merchant();
    const created = await m.createOk({ amount: '4.25', metadata: { a: 1 } });
    const res = await m.api('GET', `/orders/${created.reference}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);

    const other = await merchant();
    expectErrorBody(await other.api('GET', `/orders/${created.reference}`), 404, 'NOT_FOUND');
    expectErrorBody(await m.api('GET', `/orders/${solanaAddress()}`), 404, 'NOT_FOUND');
    for (const bad of ['not-a-reference', '0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl'])
      expectInvalid(await m.api('GET', `/orders/${bad}`), 'params.reference');
  });

  it('answers a creation with exactly what a read of the stored row presents, every optional field set', async () => {
    const m = await merchant();
    const created = await m.createOk({
      quoteCurrency: 'BRL',
      quoteAmount: '99.90',
      description: 'Café ☕ "quoted" \\ order',
      metadata: { z: [1, { b: null }], a: 'ü' },
      webhookUrl: 'https://hooks.example.com/order',
      returnUrl: 'https://shop.example.com/thanks',
      messengerChatId: '-100123',
      expiresInSeconds: 600,
    });
    const [[stored]] = (await server.deps.db.sequelize.query(
      'SELECT amount_received_units, amount_refunded_units, tx_id, paid_at, paid_late FROM orders WHERE reference = :r',
      { replacements: { r: created.reference } },
    )) as [Record<string, unknown>[], unknown];
    expect(stored).toEqual({
      amount_received_units: '0',
      amount_refunded_units: '0',
      tx_id: null,
      paid_at: null,
      paid_late: false,
    });
    expect((await m.api('GET', `/orders/${created.reference}`)).body).toEqual(created);
  });
});

describe('POST /orders/{reference}/submit-tx', () => {
  let m: Merchant;
  beforeAll(async () => {
    m = await merchant(['SOLANA', 'ETHEREUM']);
  });
  const submit = (reference: string, txId: unknown, who: Merchant = m) =>
    who.api('POST', `/orders/${reference}/submit-tx`, { body: { txId } });

  it('refuses malformed transaction ids', async () => {
    const o = await m.createOk({ amount: '1' });
    for (const txId of [
      'abc',
      randomBytes(32).toString('hex'),
      evmTxHash(),
      encodeBase58(randomBytes(32)),
      '',
    ])
      expectInvalid(await submit(o.reference, txId), 'body.txId');
    expectInvalid(await m.api('POST', `/orders/${o.reference}/submit-tx`, { body: {} }), 'body.txId');
    expect((await m.api('GET', `/orders/${o.reference}`)).body.status).toBe('PENDING');
  });

  it('records a well-formed signature as a claim: 202, CONFIRMING, audited once', async () => {
    const o = await m.createOk({ amount: '1' });
    const txId = solanaSignature();
    const res = await submit(o.reference, txId);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ reference: o.reference, status: 'CONFIRMING', paidAt: null });
    expect((await m.api('GET', `/orders/${o.reference}`)).body.status).toBe('CONFIRMING');

    const timeline = await m.audit(o.reference);
    expect(timeline.map((e) => e.type)).toEqual(['order.created', 'tx.submitted', 'status.changed']);
    expect(timeline[1]).toMatchObject({ actor: 'member', data: { txId } });
    expect(timeline[2]).toMatchObject({ actor: 'member', data: { from: 'PENDING', to: 'CONFIRMING' } });

    const again = await submit(o.reference, txId);
    expect(again.status).toBe(202);
    expect(again.body.status).toBe('CONFIRMING');
    expect(await m.audit(o.reference)).toHaveLength(3);

    // Reported for another order too, it is checked for both: only a credited report holds it.
    const another = await m.createOk({ amount: '1' });
    expect((await submit(another.reference, txId)).status).toBe(202);
    // Credited to the first (as the verifier would), it is nobody else's.
    await server.deps.db.models.PaymentClaim.update(
      { status: 'VERIFIED' },
      {
        where: {
          txId,
          orderId: (await server.deps.db.models.Order.findOne({ where: { reference: o.reference } }))!.id,
        },
      },
    );
    const third = await m.createOk({ amount: '1' });
    expectErrorBody(await submit(third.reference, txId), 409, 'CONFLICT');
    expect((await m.api('GET', `/orders/${third.reference}`)).body.status).toBe('PENDING');
  });

  it('takes a 0x hash on an EVM order and refuses a Solana signature there', async () => {
    const o = await m.createOk({ network: 'ETHEREUM', amount: '1' });
    expectInvalid(await submit(o.reference, solanaSignature()), 'body.txId');
    const hash = evmTxHash();
    const res = await submit(o.reference, hash);
    expect(res.status).toBe(202);
    // A claim to verify on chain: the order waits in CONFIRMING.
    expect(res.body.status).toBe('CONFIRMING');
    // Hex is case-insensitive: the same hash in upper case is the same transaction, reported once.
    const upper = `0x${hash.slice(2).toUpperCase()}`;
    expect((await submit(o.reference, upper)).status).toBe(202);
    expect(
      (await m.audit(o.reference)).filter((e: { type: string }) => e.type === 'tx.submitted'),
    ).toHaveLength(1);
    // Credited (as the verifier would), it is nobody else's, in any letter case.
    await server.deps.db.models.PaymentClaim.update({ status: 'VERIFIED' }, { where: { txId: hash } });
    const another = await m.createOk({ network: 'ETHEREUM', amount: '1' });
    expectErrorBody(await submit(another.reference, upper), 409, 'CONFLICT');
  });

  it('is a 409 for an order that can no longer be paid', async () => {
    const paid = await m.createOk({ amount: '1' });
    const lapsed = await m.createOk({ amount: '1' });
    // Reaching PAID or the end of the late-payment window takes the chain or a day: set the state directly.
    const { Order } = server.deps.db.models;
    await Order.update({ status: 'PAID' }, { where: { reference: paid.reference } });
    const longAgo = new Date(Date.now() - (server.config.LATE_PAYMENT_WINDOW_SECONDS + 3600) * 1000);
    await Order.update({ status: 'EXPIRED', expiresAt: longAgo }, { where: { reference: lapsed.reference } });
    for (const o of [paid, lapsed])
      expectErrorBody(await submit(o.reference, solanaSignature()), 409, 'CONFLICT');
  });

  it("is a 404 for another merchant's order or an unknown one", async () => {
    const o = await m.createOk({ amount: '1' });
    const other = await merchant();
    expectErrorBody(await submit(o.reference, solanaSignature(), other), 404, 'NOT_FOUND');
    expectErrorBody(await submit(solanaAddress(), solanaSignature()), 404, 'NOT_FOUND');
    expect((await m.api('GET', `/orders/${o.reference}`)).body.status).toBe('PENDING');
  });
});

describe('authentication', () => {
  it.each([
    ['POST', '/orders', { network: 'SOLANA', token: 'USDT', amount: '1' }],
    ['GET', '/users/me/orders', undefined],
    ['GET', `/orders/${solanaAddress()}`, undefined],
    ['POST', `/orders/${solanaAddress()}/submit-tx`, { txId: solanaSignature() }],
  ])('%s %s needs a token', async (method, path, body) => {
    expectErrorBody(await server.api(method, path, { body }), 401, 'UNAUTHENTICATED');
    expectErrorBody(await server.api(method, path, { body, token: 'garbage' }), 401, 'UNAUTHENTICATED');
  });
});
