import pg from 'pg';
import { DatabaseError } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPooledClient } from '../../server/db/pooled-client';
import { createPreparedStatements } from '../../server/db/prepared-statements';
import { isDeepStrictEqual } from 'node:util';
import { readOrder } from '../../server/orders/find-order';
import { newMerchant, startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ JOBS: 'none' });
});
afterAll(() => server.stop());

describe("prepared statements on Sequelize's pool", () => {
  it('borrows a pg.Client from the pool and gives it back (fails when Sequelize changes what it hands out)', async () => {
    const { sequelize } = server.deps.db;
    const seen = await withPooledClient(sequelize, async (client) => {
      expect(client).toBeInstanceOf(pg.Client);
      return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one;
    });
    expect(seen).toBe(1);
    // Given back: the pool still serves Sequelize's own queries.
    const [rows] = await sequelize.query('SELECT 2 AS two');
    expect(rows).toEqual([{ two: 2 }]);
  });

  it('binds named values, and refuses a statement missing one', async () => {
    const prepared = createPreparedStatements(server.deps.db.sequelize);
    const text = 'SELECT CAST($a AS int) + CAST($b AS int) AS sum, CAST($a AS int) AS a';
    expect(await prepared.run(text, { a: 2, b: 3 })).toEqual([{ sum: 5, a: 2 }]);
    expect(await prepared.run(text, { a: 10, b: -1 })).toEqual([{ sum: 9, a: 10 }]);
    await expect(prepared.run(text, { a: 1 })).rejects.toThrow('no value for $b');
  });

  it("throws database errors as Sequelize's, as sequelize.query does", async () => {
    const prepared = createPreparedStatements(server.deps.db.sequelize);
    await expect(prepared.run('SELECT CAST($x AS int) / 0 AS boom', { x: 1 })).rejects.toBeInstanceOf(
      DatabaseError,
    );
  });
});

describe('reading one order', () => {
  let one: TestServer;
  beforeAll(async () => {
    // One connection: the statement the read left on it is the one looked at below.
    one = await startTestServer({ JOBS: 'none', DB_POOL_MAX: '1' });
  });
  afterAll(() => one?.stop());

  it('GET /orders/{reference} reads the order with a prepared statement (parsed and planned once per connection)', async () => {
    const shop = await newMerchant(one, { wallets: ['SOLANA'] });
    const created = await one.api('POST', '/orders', {
      token: shop.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '1.25' },
    });
    expect(created.status, created.text).toBe(201);
    for (let i = 0; i < 2; i++) {
      const read = await one.api('GET', `/orders/${created.body.reference}`, { token: shop.token });
      expect(read.status, read.text).toBe(200);
    }
    const prepared = await withPooledClient(
      one.deps.db.sequelize,
      async (client) =>
        (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows,
    );
    expect(
      prepared.map((p) => p.statement).filter((s) => /FROM orders WHERE reference = \$1/.test(s)),
    ).toHaveLength(1);
  });

  it('GET /users/me/orders reads an unfiltered page, a cursor page and the total with prepared statements', async () => {
    const shop = await newMerchant(one, { wallets: ['SOLANA'] });
    for (const amount of ['1.5', '1.6', '1.7']) {
      const created = await one.api('POST', '/orders', {
        token: shop.token,
        body: { network: 'SOLANA', token: 'USDT', amount },
      });
      expect(created.status, created.text).toBe(201);
    }
    const page = await one.api('GET', '/users/me/orders?per_page=2', { token: shop.token });
    expect(page.status, page.text).toBe(200);
    expect(page.body.items.map((o: { amount: string }) => o.amount)).toEqual(['1.700000', '1.600000']);
    expect(page.body.total).toBe(3);
    const first = await one.api('GET', '/users/me/orders?per_page=2&cursor=', { token: shop.token });
    const next = await one.api('GET', `/users/me/orders?per_page=2&cursor=${first.body.nextCursor}`, {
      token: shop.token,
    });
    expect(next.body.items.map((o: { amount: string }) => o.amount)).toEqual(['1.500000']);
    const statements = await withPooledClient(one.deps.db.sequelize, async (client) =>
      (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map(
        (p) => p.statement,
      ),
    );
    for (const read of [
      /FROM orders WHERE merchant_id = \$1\s+ORDER BY/,
      /AND id < \$\d/,
      /FROM order_counts/,
    ])
      expect(
        statements.filter((s) => read.test(s)),
        String(read),
      ).toHaveLength(1);
  });

  it("is the row Sequelize reads, field for field and type for type (one option, every option, the payer's page)", async () => {
    const shop = await newMerchant(one, { wallets: ['SOLANA', 'POLYGON', 'ETHEREUM'] });
    for (const body of [
      { network: 'SOLANA', token: 'USDT', amount: '2.5', description: 'one way' },
      { network: 'POLYGON', token: 'USDT', amount: '3', paymentOptions: 'all', metadata: { sku: 'a' } },
    ]) {
      const created = await one.api('POST', '/orders', { token: shop.token, body });
      expect(created.status, created.text).toBe(201);
      const reference = created.body.reference as string;
      const bySequelize = await one.deps.db.models.Order.findOne({ where: { reference }, raw: true });
      for (const where of [{ reference, merchantId: shop.id }, { reference }]) {
        const row = (await readOrder(one.deps, where)) as unknown as Record<string, unknown>;
        const expected = Object.fromEntries(
          Object.entries(bySequelize as unknown as Record<string, unknown>).map(([k, v]) => [
            k,
            ['amountUnits', 'amountReceivedUnits', 'amountRefundedUnits', 'quoteUnits'].includes(k) &&
            v !== null
              ? BigInt(v as string)
              : v,
          ]),
        );
        expect(isDeepStrictEqual(row, expected), JSON.stringify(Object.keys(row))).toBe(true);
      }
    }
    await expect(readOrder(one.deps, { reference: 'x'.repeat(44), merchantId: shop.id })).rejects.toThrow(
      'Order',
    );
  });
});
