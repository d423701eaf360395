import { describe, expect, it } from 'vitest';
import { newMerchant, useTestServer } from '../support/test-server';

/**
 * Unique amounts without a lock across order creation: payable orders to one wallet never share an
 * amount within the bound, concurrent creations race for amounts without waiting on each other, and
 * creation never fails because amounts are taken.
 */

const server = useTestServer({ API_RATE_LIMIT_PER_SECOND: '100000' });

type Created = { amount: string; amountUnique: boolean; reference: string };

async function createMany(token: string, count: number, amount: string, concurrency: number) {
  const results: Created[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const res = await server.api('POST', '/orders', {
          token,
          body: { network: 'SOLANA', token: 'USDT', amount },
        });
        expect(res.status, res.text).toBe(201);
        results.push(res.body);
      }
    }),
  );
  return results;
}

describe('unique amounts', () => {
  it('gives 40 concurrent orders at one price 40 different amounts', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const orders = await createMany(m.token, 40, '7.25', 20);
    expect(orders.every((o) => o.amountUnique)).toBe(true);
    expect(new Set(orders.map((o) => o.amount)).size).toBe(40);
    const units = orders.map((o) => Math.round(Number(o.amount) * 1e6)).sort((a, b) => a - b);
    expect(units[0]).toBe(7_250_000);
    expect(units.at(-1)! - units[0]!).toBeLessThan(60); // the smallest free ones, give or take races
  });

  it('creates 1,500 orders at one price to one wallet: 1,001 unique amounts, then plain ones marked not unique', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const orders = await createMany(m.token, 1500, '10', 8);
    expect(orders).toHaveLength(1500);
    const unique = orders.filter((o) => o.amountUnique);
    expect(unique).toHaveLength(1001);
    expect(new Set(unique.map((o) => o.amount)).size).toBe(1001);
    const plain = orders.filter((o) => !o.amountUnique);
    expect(new Set(plain.map((o) => o.amount))).toEqual(new Set(['10.000000']));
    const [first] = plain;
    const audit = await server.api('GET', `/orders/${first!.reference}/audit`, { token: m.token });
    expect(audit.body.items[0].data).toMatchObject({ amountUnique: false });
  }, 120_000);

  it('frees an amount once its order can no longer be paid', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const [a] = await createMany(m.token, 1, '3', 1);
    const [b] = await createMany(m.token, 1, '3', 1);
    expect([a!.amount, b!.amount]).toEqual(['3.000000', '3.000001']);
    // a's late-payment window ends: its amount is free for the next order.
    await server.deps.db.sequelize.query(
      `UPDATE amount_reservations SET held_until = now() - interval '1 second' WHERE reference = :reference`,
      { replacements: { reference: a!.reference } },
    );
    const [c] = await createMany(m.token, 1, '3', 1);
    expect(c!.amount).toBe('3.000000');
  });
});
