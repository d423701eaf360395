/**
 * The shop's own test, run against `npm run sandbox` (local chains: no real money):
 *
 *   npm run sandbox                                            # one terminal
 *   npx vitest run --config examples/shop/vitest.config.ts     # another
 *
 * STABLEPAY_URL is the sandbox (default http://localhost:3000). STABLEPAY_API_KEY: a key with the
 * scopes orders:read, orders:write, refunds:write, account:read and account:write; without one the
 * test signs in as the sandbox's merchant (STABLEPAY_EMAIL / STABLEPAY_PASSWORD, default the
 * sandbox@example.com / sandbox-password the sandbox prints) and makes a key for the run, revoked at
 * its end. It points the merchant's webhooks at the shop (with a new signing secret) for the run.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createClient, webhooks, type StablepayClient } from '@stablepay/sdk';
import { createShop } from './shop';

const baseUrl = process.env.STABLEPAY_URL ?? 'http://localhost:3000';
const eventually = { timeout: 30_000, interval: 100 };
let stablepay: StablepayClient;
let shop: ReturnType<typeof createShop>;
let server: Server;
let webhookUrl: string;
const undo: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  let apiKey = process.env.STABLEPAY_API_KEY;
  if (!apiKey) {
    const merchant = createClient({ baseUrl });
    await merchant.auth.login({
      email: process.env.STABLEPAY_EMAIL ?? 'sandbox@example.com',
      password: process.env.STABLEPAY_PASSWORD ?? 'sandbox-password',
    });
    const key = await merchant.apiKeys.create({
      name: 'shop test',
      scopes: ['orders:read', 'orders:write', 'refunds:write', 'account:read', 'account:write'],
    });
    apiKey = key.secret;
    undo.push(() => merchant.apiKeys.revoke(key.id));
  }
  stablepay = createClient({ baseUrl, apiKey });

  // The shop's webhook receiver, registered on the merchant through the API.
  const before = (await stablepay.profile.get()).webhook_url;
  const { webhook_secret } = await stablepay.profile.rotateWebhookSecret();
  shop = createShop({ stablepay, webhookSecret: webhook_secret });
  server = await new Promise<Server>((resolve) => {
    const listening: Server = shop.app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stablepay`;
  await stablepay.profile.update({ webhook_url: webhookUrl });
  undo.push(() => stablepay.profile.update({ webhook_url: before }));
});

afterAll(async () => {
  for (const step of undo.reverse()) await step();
  server?.close();
});

it('a cart is paid, fulfilled from its signed webhook, then partly refunded', async () => {
  const order = await shop.checkout('cart_1001', '49.90');
  expect(order.status).toBe('PENDING');

  // The payer, in the sandbox: a real transfer on its local chain, as a wallet would send it.
  await stablepay.sandbox.pay(order.reference);
  await vi.waitFor(() => expect(shop.purchases.get(order.reference)?.status).toBe('paid'), eventually);

  const refund = await shop.refund(order.reference, '1.50', 'One item out of stock');
  expect(refund).toMatchObject({ status: 'PENDING', amount: '1.500000' });
  // Sent from the order's receiving wallet, whose key the sandbox holds (your wallet, live).
  await stablepay.sandbox.sendRefund(refund.id);
  await vi.waitFor(async () => {
    const { items } = await stablepay.orders.refunds.list(order.reference);
    expect(items.find((r) => r.id === refund.id)?.status).toBe('SUCCEEDED');
  }, eventually);
  await vi.waitFor(() => expect(shop.purchases.get(order.reference)?.status).toBe('refunded'), eventually);
});

it('a webhook the shop cannot verify is refused', async () => {
  const payload = JSON.stringify({ id: 'evt_forged', type: 'order.paid', data: {} });
  const res = await fetch(webhookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-webhook-signature': webhooks.generateTestHeader({ payload, secret: 'whsec_not_the_shops' }),
    },
    body: payload,
  });
  expect(res.status).toBe(400);
});
