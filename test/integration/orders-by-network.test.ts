import { parse } from 'csv-parse/sync';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { orderOnNetworkSql } from '../../server/orders/payment-options';
import { startOptionChains, units18, type OptionChains, type OptionShop } from '../support/option-chains';
import { usePaymentStack, type PaidOrder } from '../support/payment-harness';

/**
 * Orders filtered by network (issue 36): an order is on every network of its payment options (so
 * on the one it was paid on), in the list, its page totals and the orders CSV alike.
 */

let stack: OptionChains;
usePaymentStack(
  async () => {
    stack = await startOptionChains();
  },
  () => stack?.parts() ?? [],
);

const NETWORKS = ['SOLANA', 'POLYGON', 'BSC'] as const;
const option = (network: string) => ({ network, token: 'USDT' });
const refs = (orders: readonly { reference: string }[]) => orders.map((o) => o.reference);

/** What the list (page and cursor mode), its total, the CSV and the orders' rows say is on `network`. */
async function onNetwork(shop: OptionShop, network: string, status = '') {
  const { server } = stack.h;
  const filter = `network=${network}${status ? `&status=${status}` : ''}`;
  const page = await server.api('GET', `/users/me/orders?${filter}&per_page=50`, { token: shop.token });
  expect(page.status, page.text).toBe(200);
  const cursor = await server.api('GET', `/users/me/orders?${filter}&cursor=`, { token: shop.token });
  expect(cursor.status, cursor.text).toBe(200);
  const today = new Date().toISOString().slice(0, 10);
  const csv = await fetch(`${server.url}/dashboard/exports/orders.csv?from=${today}&to=${today}&${filter}`, {
    headers: { authorization: `Bearer ${shop.token}` },
  });
  expect(csv.status).toBe(200);
  const rows = parse(await csv.text(), { columns: true }) as { reference: string; status: string }[];
  const [counted] = await server.deps.db.sequelize.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM orders o
      WHERE o.merchant_id = :merchantId ${status ? 'AND o.status = :status' : ''} AND ${orderOnNetworkSql('o', ':network')}`,
    { type: QueryTypes.SELECT, replacements: { merchantId: shop.id, network, status } },
  );
  return {
    listed: refs(page.body.items),
    cursorListed: refs(cursor.body.items),
    total: page.body.total as number,
    // The CSV is oldest first, the list newest first.
    exported: rows
      .filter((r) => !status || r.status === status)
      .map((r) => r.reference)
      .reverse(),
    counted: counted!.n,
  };
}

describe('orders by network', () => {
  it('lists, counts and exports an order under each network it may be paid on, and the one it was paid on', async () => {
    const { shop } = await stack.newShop();
    const { h } = stack;
    const solanaOrPolygon = await h.createOrder(shop, { amount: '5', paymentOptions: [option('POLYGON')] });
    const paidOnBsc = await h.createOrder(shop, { amount: '7.25', paymentOptions: [option('BSC')] });
    const solanaOnly = await h.createOrder(shop, { amount: '3' });
    const options = paidOnBsc.paymentOptions as { network: string; recipient: string; amount: string }[];
    const bscOption = options.find((o) => o.network === 'BSC')!;
    await stack.payBsc(await stack.bscPayer(), bscOption.recipient, units18(bscOption.amount));
    await h.settle(shop, paidOnBsc.reference, 'PAID');

    const expected: Record<(typeof NETWORKS)[number], PaidOrder[]> = {
      SOLANA: [solanaOnly, paidOnBsc, solanaOrPolygon],
      POLYGON: [solanaOrPolygon],
      BSC: [paidOnBsc],
    };
    for (const network of NETWORKS) {
      const seen = await onNetwork(shop, network);
      const want = refs(expected[network]);
      expect(seen, network).toEqual({
        listed: want,
        cursorListed: want,
        total: want.length,
        exported: want,
        counted: want.length,
      });
    }
    // The kept totals follow the status change on every network of the order's options.
    for (const [network, status, want] of [
      ['BSC', 'PAID', [paidOnBsc]],
      ['BSC', 'PENDING', []],
      ['SOLANA', 'PAID', [paidOnBsc]],
      ['SOLANA', 'PENDING', [solanaOnly, solanaOrPolygon]],
      ['POLYGON', 'PENDING', [solanaOrPolygon]],
      ['POLYGON', 'PAID', []],
    ] as const) {
      const seen = await onNetwork(shop, network, status);
      expect(seen, `${network} ${status}`).toMatchObject({
        listed: refs(want),
        total: want.length,
        exported: refs(want),
        counted: want.length,
      });
    }
    // Unfiltered, each order is counted once.
    const all = await h.server.api('GET', '/users/me/orders?per_page=1', { token: shop.token });
    expect(all.body.total).toBe(3);
  });
});
