import { describe, expect, it } from 'vitest';
import { applyTransition, TransitionRefused } from '../../server/events/lifecycle';
import { ORDER_LIFECYCLE } from '../../server/orders/order-lifecycle';
import { newMerchant, useTestServer } from '../support/test-server';

/** The one function that moves a status, on the real database: what it writes, and what it refuses. */

const server = useTestServer();

async function newOrder() {
  const m = await newMerchant(server, { wallets: ['SOLANA'] });
  const res = await server.api('POST', '/orders', {
    token: m.token,
    body: { network: 'SOLANA', token: 'USDT', amount: '2' },
  });
  expect(res.status, res.text).toBe(201);
  return (await server.deps.db.models.Order.findOne({ where: { reference: res.body.reference } }))!;
}
const timeline = async (orderId: string) =>
  (await server.deps.db.models.AuditEntry.findAll({ where: { orderId }, order: [['id', 'ASC']] })).map(
    (e) => e.type,
  );
const events = async (orderId: string) =>
  (await server.deps.db.models.Event.findAll({ where: { orderId }, order: [['createdAt', 'ASC']] })).map(
    (e) => e.type,
  );

describe('applyTransition', () => {
  it('moves, stamps, audits and emits together, as the table says', async () => {
    const order = await newOrder();
    const before = order.updatedAt;
    await server.deps.db.sequelize.transaction((transaction) =>
      applyTransition(server.deps, transaction, ORDER_LIFECYCLE, order, {
        cause: 'expired',
        to: 'EXPIRED',
        actor: 'system',
        reason: 'expired without payment',
      }),
    );
    const stored = await order.reload();
    expect(stored.status).toBe('EXPIRED');
    expect(stored.updatedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(await timeline(order.id)).toEqual(['order.created', 'status.changed']);
    expect(await events(order.id)).toEqual(['order.created', 'order.expired']);
  });

  it('refuses a move the table does not have, and one from a status the row no longer has: nothing written', async () => {
    const order = await newOrder();
    const attempt = (to: 'PAID' | 'EXPIRED', cause: 'expired' | 'reported') =>
      server.deps.db.sequelize.transaction((transaction) =>
        applyTransition(server.deps, transaction, ORDER_LIFECYCLE, order, { cause, to, actor: 'system' }),
      );
    await expect(attempt('PAID', 'expired')).rejects.toBeInstanceOf(TransitionRefused);
    // Another worker moved it meanwhile: this one's view is stale.
    await server.deps.db.models.Order.update({ status: 'EXPIRED' }, { where: { id: order.id } });
    await expect(attempt('EXPIRED', 'expired')).rejects.toThrow(/is EXPIRED, not PENDING/);
    expect(await timeline(order.id)).toEqual(['order.created']);
    expect(await events(order.id)).toEqual(['order.created']);
  });
});
