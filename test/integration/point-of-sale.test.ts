import { randomUUID } from 'node:crypto';
import { formatUnits, parseUnits } from '../../contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../support/members';
import { expectErrorBody, expectFieldError, newMerchant, startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

/**
 * The point of sale's server side (issue 38): the account's currency and tips, a sale's order (every
 * payment option, source pos, the cashier as its maker), a retried sale that never charges twice,
 * a cashier who reads only its own orders, and the day's sales by member.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ JOBS: 'none' });
});
afterAll(async () => {
  await s?.stop();
});

const today = () => new Date().toISOString().slice(0, 10);
const sale = (amount: string) => ({
  network: 'SOLANA',
  token: 'USDT',
  amount,
  paymentOptions: 'all',
  source: 'pos',
  metadata: { subtotal: amount, tip: '0' },
});

describe('account settings', () => {
  it('GET and PATCH /account: name, currency, tips; admin may, a cashier may not', async () => {
    const m = await newMerchant(s, { name: 'Corner Café' });
    const first = await s.api('GET', '/account', { token: m.token });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      id: m.id,
      name: 'Corner Café',
      currency: 'USDT',
      tipPercentages: [],
      requireTwoFactor: false,
      payoutApprovals: 1,
    });

    const admin = await addMember(s, m.id, 'admin');
    const changed = await s.api('PATCH', '/account', {
      token: admin.token,
      body: { currency: 'BRL', tipPercentages: [20, 10, 15] },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'Corner Café',
      currency: 'BRL',
      tipPercentages: [10, 15, 20],
    });

    const cashier = await addMember(s, m.id, 'cashier');
    // Every member reads the settings (the point of sale needs them); only account:write changes them.
    expect((await s.api('GET', '/account', { token: cashier.token })).body).toMatchObject({
      currency: 'BRL',
      tipPercentages: [10, 15, 20],
    });
    const refused = await s.api('PATCH', '/account', { token: cashier.token, body: { tipPercentages: [] } });
    expectErrorBody(refused, 403, 'FORBIDDEN');
    expect(refused.body.error.message).toContain('needs account:write');

    expectFieldError(
      await s.api('PATCH', '/account', { token: m.token, body: { currency: 'XYZ' } }),
      'body.currency',
    );
    expectErrorBody(
      await s.api('PATCH', '/account', { token: m.token, body: { tipPercentages: [10, 10] } }),
      400,
      'VALIDATION_ERROR',
    );
    expectErrorBody(
      await s.api('PATCH', '/account', { token: m.token, body: { tipPercentages: [101] } }),
      400,
      'VALIDATION_ERROR',
    );
    const none = await s.api('PATCH', '/account', {
      token: m.token,
      body: { tipPercentages: [], currency: 'EUR' },
    });
    expect(none.body).toMatchObject({ currency: 'EUR', tipPercentages: [] });
  });
});

describe('a sale', () => {
  it('is an order with every option, source pos, the cashier as its maker; a retry gives the same order', async () => {
    const m = await newMerchant(s, { wallets: ['SOLANA', 'POLYGON'] });
    const cashier = await addMember(s, m.id, 'cashier');
    const key = randomUUID();
    const made = await s.api('POST', '/orders', {
      token: cashier.token,
      headers: { 'idempotency-key': key },
      body: sale('11.50'),
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      source: 'pos',
      createdBy: { memberId: cashier.id, email: cashier.email },
      amount: '11.500000',
    });
    expect(made.body.paymentOptions.length).toBeGreaterThan(1);

    // The connection dropped before the answer: the browser sends the same sale with the same key.
    const retried = await s.api('POST', '/orders', {
      token: cashier.token,
      headers: { 'idempotency-key': key },
      body: sale('11.50'),
    });
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.reference).toBe(made.body.reference);
    const [{ n }] = (await s.deps.db.sequelize.query(
      'SELECT count(*)::int AS n FROM orders WHERE merchant_id = :id',
      { replacements: { id: m.id }, type: 'SELECT' },
    )) as unknown as [{ n: number }];
    expect(n).toBe(1);

    // An order made by the API without a source is the API's; the owner is its maker.
    const plain = await s.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '2' },
    });
    expect(plain.body).toMatchObject({ source: 'api', createdBy: { memberId: m.id } });
    expectFieldError(
      await s.api('POST', '/orders', { token: m.token, body: { ...sale('1'), source: 'subscription' } }),
      'body.source',
    );
  });

  it('a cashier reads only the orders it made; the owner reads all', async () => {
    const m = await newMerchant(s, { wallets: ['SOLANA'] });
    const one = await addMember(s, m.id, 'cashier');
    const two = await addMember(s, m.id, 'cashier');
    const mine = await s.api('POST', '/orders', { token: one.token, body: sale('3') });
    const theirs = await s.api('POST', '/orders', { token: two.token, body: sale('4') });
    const owners = await s.api('POST', '/orders', { token: m.token, body: sale('5') });
    expect([mine.status, theirs.status, owners.status]).toEqual([201, 201, 201]);

    const list = await s.api('GET', '/users/me/orders', { token: one.token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((o: { reference: string }) => o.reference)).toEqual([mine.body.reference]);
    expect(list.body.total).toBe(1);
    const cursor = await s.api('GET', '/users/me/orders?cursor=', { token: one.token });
    expect(cursor.body.items.map((o: { reference: string }) => o.reference)).toEqual([mine.body.reference]);
    expect((await s.api('GET', `/orders/${mine.body.reference}`, { token: one.token })).status).toBe(200);
    expectErrorBody(
      await s.api('GET', `/orders/${theirs.body.reference}`, { token: one.token }),
      404,
      'NOT_FOUND',
    );
    expectErrorBody(
      await s.api('GET', `/orders/${owners.body.reference}`, { token: one.token }),
      404,
      'NOT_FOUND',
    );

    const all = await s.api('GET', '/users/me/orders', { token: m.token });
    expect(all.body.total).toBe(3);
  });
});

describe('the day’s sales by member', () => {
  it('GET /dashboard/summary?by=member counts each cashier’s orders and what the paid ones received', async () => {
    const m = await newMerchant(s, { wallets: ['SOLANA'] });
    const one = await addMember(s, m.id, 'cashier');
    const two = await addMember(s, m.id, 'cashier');
    const a = await s.api('POST', '/orders', { token: one.token, body: sale('3.25') });
    await s.api('POST', '/orders', { token: one.token, body: sale('1') });
    await s.api('POST', '/orders', { token: two.token, body: sale('7') });
    // Paid as the payment matcher would leave it (the chains' own tests pay for real).
    await s.deps.db.sequelize.query(
      `UPDATE orders SET status = 'PAID', amount_received_units = amount_units, paid_at = now() WHERE reference = :r`,
      { replacements: { r: a.body.reference } },
    );
    const range = `from=${today()}&to=${today()}`;
    const res = await s.api('GET', `/dashboard/summary?${range}&by=member`, { token: m.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.byMember).toEqual([
      {
        memberId: one.id,
        email: one.email,
        name: 'A cashier',
        ordersCreated: 2,
        ordersPaid: 1,
        received: [{ token: 'USDT', amount: '3.25' }],
        receivedFiat: [],
      },
      {
        memberId: two.id,
        email: two.email,
        name: 'A cashier',
        ordersCreated: 1,
        ordersPaid: 0,
        received: [],
        receivedFiat: [],
      },
    ]);
    // Without by, the summary is as it was; a cashier may not read the account's figures.
    expect(
      (await s.api('GET', `/dashboard/summary?${range}`, { token: m.token })).body.byMember,
    ).toBeUndefined();
    expectErrorBody(
      await s.api('GET', `/dashboard/summary?${range}&by=member`, { token: one.token }),
      403,
      'FORBIDDEN',
    );
  });

  it("GET /dashboard/sales/mine: a cashier's own day, counted on the server past a page of orders", async () => {
    const m = await newMerchant(s, { wallets: ['SOLANA'] });
    const [cashier, other] = [await addMember(s, m.id, 'cashier'), await addMember(s, m.id, 'cashier')];
    const range = `from=${today()}&to=${today()}`;
    // Nothing sold yet: zero, named.
    const none = await s.api('GET', `/dashboard/sales/mine?${range}`, { token: cashier.token });
    expect(none.status, none.text).toBe(200);
    expect(none.body).toMatchObject({ memberId: cashier.id, ordersCreated: 0, ordersPaid: 0, received: [] });
    // More sales than a page of the order list (50): 55 made, 53 paid.
    const made: { reference: string; amount: string }[] = [];
    for (let i = 0; i < 55; i++) {
      const res = await s.api('POST', '/orders', { token: cashier.token, body: sale('1.01') });
      expect(res.status, res.text).toBe(201);
      made.push(res.body);
    }
    await s.api('POST', '/orders', { token: other.token, body: sale('500') });
    // Paid as the payment matcher would leave them (the chains' own tests pay for real).
    await s.deps.db.sequelize.query(
      `UPDATE orders SET status = 'PAID', amount_received_units = amount_units, paid_at = now()
        WHERE merchant_id = :merchantId`,
      { replacements: { merchantId: m.id } },
    );
    await s.deps.db.sequelize.query(
      `UPDATE orders SET status = 'EXPIRED', amount_received_units = 0 WHERE reference IN (:refs)`,
      { replacements: { refs: made.slice(0, 2).map((o) => o.reference) } },
    );
    // Each a unique amount (1.01 raised by base units): the sum of what the 53 paid ones were.
    const paidUnits = made.slice(2).reduce((sum, o) => sum + parseUnits(o.amount, 6), 0n);
    const mine = await s.api('GET', `/dashboard/sales/mine?${range}`, { token: cashier.token });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toEqual({
      memberId: cashier.id,
      email: cashier.email,
      name: 'A cashier',
      ordersCreated: 55,
      ordersPaid: 53,
      received: [{ token: 'USDT', amount: formatUnits(paidUnits, 6, 0) }],
      receivedFiat: [],
    });
    // The other cashier's sale is its own; the owner made none.
    const theirs = await s.api('GET', `/dashboard/sales/mine?${range}`, { token: other.token });
    expect(theirs.body).toMatchObject({ ordersPaid: 1, received: [{ token: 'USDT', amount: '500' }] });
    const owner = await s.api('GET', `/dashboard/sales/mine?${range}`, { token: m.token });
    expect(owner.body).toMatchObject({ memberId: m.id, ordersCreated: 0, ordersPaid: 0 });
  });
});
