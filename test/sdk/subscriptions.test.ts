import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  createClient,
  isSubscriptionEvent,
  NotFoundError,
  webhooks,
  type CreateSubscriptionParams,
  type Subscription,
  type SubscriptionEvent,
  type SubscriptionStatus,
} from '../../sdk/src/index';
import { newMerchant, TEST_PASSWORD, type TestServer } from '../support/test-server';
import { useDeliveryStack, type DeliveryStack } from '../support/delivery-stack';

/** The SDK's subscriptions against a real service: their whole life, and their webhooks verified. */

let server: TestServer;
let receiver: DeliveryStack['receiver'];
useDeliveryStack({}, (stack) => ({ server, receiver } = stack));

async function merchantClient() {
  const m = await newMerchant(server, { wallets: ['SOLANA'] });
  const client = createClient({ baseUrl: server.url });
  await client.auth.login({ email: m.email, password: TEST_PASSWORD });
  return { client, id: m.id };
}

describe('client: subscriptions', () => {
  it('create → get → list by status and customer e-mail → orders → pause → resume → cancel', async () => {
    const { client } = await merchantClient();
    const email = `Ana-${Date.now()}@Example.com`;
    const params: CreateSubscriptionParams = {
      customer: { email, name: 'Ana', language: 'pt-BR' },
      interval: 'month',
      network: 'SOLANA',
      token: 'USDT',
      amount: '9.90',
      description: 'Plano mensal',
    };
    const monthly = await client.subscriptions.create(params, { idempotencyKey: `sub-${email}` });
    expect(monthly).toMatchObject({
      status: 'INCOMPLETE',
      interval: 'month',
      intervalCount: 1,
      amount: '9.90',
      customer: { email, name: 'Ana', language: 'pt-BR' },
      cancelAtPeriodEnd: false,
    });
    expect(monthly.id).toMatch(/^sub_/);
    expect(monthly.manageUrl).toContain('/subscriptions/manage/');
    // The same key and body: the same subscription, not a second one.
    const replayed = await client.subscriptions.create(params, { idempotencyKey: `sub-${email}` });
    expect(replayed.id).toBe(monthly.id);

    const trial = await client.subscriptions.create({
      customer: { email: 'other@example.com' },
      interval: 'week',
      intervalCount: 2,
      network: 'SOLANA',
      token: 'USDT',
      quoteCurrency: 'BRL',
      quoteAmount: '25',
      trialDays: 7,
    });
    expect(trial).toMatchObject({ status: 'TRIALING', latestOrderReference: null, quoteCurrency: 'BRL' });

    const got: Subscription = await client.subscriptions.get(monthly.id);
    expect(got.latestOrderReference).toEqual(expect.any(String));
    expect(got.currentPeriodStart).toEqual(expect.any(String));

    const ids = (page: { items: Subscription[] }) => page.items.map((s) => s.id);
    expect(ids(await client.subscriptions.list())).toEqual([trial.id, monthly.id]);
    expect(ids(await client.subscriptions.list({ status: 'TRIALING' }))).toEqual([trial.id]);
    expect(ids(await client.subscriptions.list({ customer_email: email.toUpperCase() }))).toEqual([
      monthly.id,
    ]);
    const first = await client.subscriptions.list({ per_page: 1 });
    expect(ids(first)).toEqual([trial.id]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const all: string[] = [];
    for await (const s of client.subscriptions.listAll({ status: 'INCOMPLETE' })) all.push(s.id);
    expect(all).toEqual([monthly.id]);

    const orders = await client.subscriptions.orders(monthly.id);
    expect(orders.items).toHaveLength(1);
    expect(orders.items[0]).toMatchObject({
      reference: got.latestOrderReference,
      subscriptionId: monthly.id,
      amount: expect.stringMatching(/^9\.90*\d?$/),
      period: { index: 0, start: got.currentPeriodStart, end: got.currentPeriodEnd },
    });
    expect((await client.subscriptions.orders(trial.id)).items).toEqual([]);

    const statusOf = (s: Subscription): SubscriptionStatus => s.status;
    const paused = await client.subscriptions.pause(monthly.id);
    expect(statusOf(paused)).toBe('PAUSED');
    expect(paused.nextOrderAt).toBeNull();
    await expect(client.subscriptions.pause(monthly.id)).rejects.toBeInstanceOf(ConflictError);
    expect(ids(await client.subscriptions.list({ status: 'PAUSED' }))).toEqual([monthly.id]);

    const resumed = await client.subscriptions.resume(monthly.id);
    expect(resumed.status).not.toBe('PAUSED');
    expect(resumed.nextOrderAt).toEqual(expect.any(String));

    const atEnd = await client.subscriptions.cancel(monthly.id, { atPeriodEnd: true });
    expect(atEnd).toMatchObject({ cancelAtPeriodEnd: true, canceledAt: null });
    const now = await client.subscriptions.cancel(monthly.id);
    expect(now.status).toBe('CANCELED');
    expect(now.canceledAt).toEqual(expect.any(String));
    await expect(client.subscriptions.cancel(monthly.id)).rejects.toBeInstanceOf(ConflictError);

    await expect(client.subscriptions.get('sub_doesnotexist')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a subscription.order_created webhook verifies and narrows to its subscription and order', async () => {
    const { client, id } = await merchantClient();
    const path = `/sdk-sub/${id}`;
    await client.profile.update({ webhook_url: receiver.url.replace('/hooks', path) });
    const { webhook_secret: secret } = await client.profile.rotateWebhookSecret();

    const sub = await client.subscriptions.create({
      interval: 'day',
      network: 'SOLANA',
      token: 'USDT',
      amount: '1.5',
    });
    const wanted = (h: { url: string; json: { type: string } }) =>
      h.url === path && h.json.type === 'subscription.order_created';
    await receiver.waitFor((r) => r.some(wanted));
    const hook = receiver.received.find(wanted)!;
    const event = webhooks.constructEvent({
      payload: hook.body,
      header: hook.headers['x-webhook-signature'],
      secret,
    });
    expect(isSubscriptionEvent(event)).toBe(true);
    if (event.type !== 'subscription.order_created') throw new Error(`got ${event.type}`);
    const typed: SubscriptionEvent<'subscription.order_created'> = event;
    expect(typed.data.subscription.id).toBe(sub.id);
    expect(typed.data.order).toMatchObject({ subscriptionId: sub.id, period: { index: 0 } });
    expect(typed.data.order.reference).toBe((await client.subscriptions.get(sub.id)).latestOrderReference);
    expect(typed.apiVersion).toBe('2026-12-03');
  });
});
