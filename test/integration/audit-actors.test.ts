import { Keypair } from '@solana/web3.js';
import { expect, it } from 'vitest';
import { addMember } from '../support/members';
import { startPaymentHarness, usePaymentStack, type PaymentHarness } from '../support/payment-harness';
import { paidOrderOn, refundDrivers, startRefundChains, type RefundChains } from '../support/refund-chains';
import { expectErrorBody } from '../support/test-server';

/**
 * Issue 38: every audit entry and event a person causes names that person (DESIGN.md, "Teams, roles
 * and two-factor sign-in"): a member by id and e-mail, an API key by its id. On the local Solana
 * chain, with a real paid order, its refund, an attributed transfer and a payout.
 */

let chains: RefundChains;
let h: PaymentHarness;
const { solana } = refundDrivers(() => chains);

usePaymentStack(
  async () => {
    chains = await startRefundChains();
    h = await startPaymentHarness(chains.env);
  },
  () => [h, chains?.solana, chains?.polygon],
);

type Hook = { type: string; data: Record<string, unknown> };
/** The events the shop's webhook received of `type`, newest last. */
const hooksOf = (path: string, type: string) =>
  h.receiver.received
    .filter((r) => r.url === path && r.json.type === type)
    .map((r) => r.json as unknown as Hook);

it("names the member on a refund's timeline entry and event, and a forged actor in the body is refused", async () => {
  const { shop, order } = await paidOrderOn(h, solana, '10');
  const finance = await addMember(h.server, shop.id, 'finance');
  const url = `/orders/${order.reference}/refunds`;
  // A thief in finance would have the refund look like someone else's doing: the body names no one.
  for (const forged of [{ actor: 'system' }, { memberId: shop.id }, { memberEmail: shop.email }])
    expectErrorBody(
      await h.server.api('POST', url, { token: finance.token, body: { amount: '1', ...forged } }),
      400,
      'VALIDATION_ERROR',
    );
  const made = await h.server.api('POST', url, { token: finance.token, body: { amount: '1' } });
  expect(made.status, made.text).toBe(201);

  const entry = (await h.auditOf(shop, order.reference)).find((e) => e.type === 'refund.created');
  expect(entry).toMatchObject({
    actor: 'member',
    data: { refundId: made.body.id, memberId: finance.id, memberEmail: finance.email },
  });
  await h.deliverWebhooks();
  expect(hooksOf(shop.path, 'refund.created').at(-1)!.data).toMatchObject({
    actor: 'member',
    memberId: finance.id,
    memberEmail: finance.email,
  });
  // What the service did alone names no one: the order's creation by the owner names the owner,
  // its payment the service.
  const audit = await h.auditOf(shop, order.reference);
  expect(audit.find((e) => e.type === 'order.created')).toMatchObject({
    actor: 'member',
    data: { memberEmail: shop.email },
  });
  const verified = audit.find((e) => e.type === 'payment.verified')!;
  expect(verified.actor).toBe('system');
  expect(verified.data).not.toHaveProperty('memberId');
  expect(hooksOf(shop.path, 'order.paid').at(-1)!.data).not.toHaveProperty('actor');
});

it('names the admin who attributes a transfer, and the API key (not its maker) that makes an order', async () => {
  const { shop } = await solana.newShop(h);
  const payer = await solana.newPayer();
  const admin = await addMember(h.server, shop.id, 'admin');
  const madeKey = await h.server.api('POST', '/users/me/api-keys', {
    token: admin.token,
    body: { name: 'shop backend', scopes: ['orders:write', 'orders:read'] },
  });
  expect(madeKey.status, madeKey.text).toBe(201);

  const byKey = await h.server.api('POST', '/orders', {
    token: madeKey.body.secret,
    body: { network: 'SOLANA', token: 'USDT', amount: '3' },
  });
  expect(byKey.status, byKey.text).toBe(201);
  expect(byKey.body.createdBy).toEqual({ apiKeyId: madeKey.body.id });
  const [created] = await h.auditOf(shop, byKey.body.reference);
  expect(created).toMatchObject({
    type: 'order.created',
    actor: 'api_key',
    data: { apiKeyId: madeKey.body.id, apiKeyName: 'shop backend' },
  });
  // The key acted, not its maker: the entry does not pass it off as the admin's own doing.
  expect(created!.data).not.toHaveProperty('memberId');

  // A transfer without the order's tag, of another amount: only the merchant's word attributes it.
  const txId = await solana.transfer(payer.key, shop.wallet, 2_500_000n);
  const attributed = await h.server.api('POST', `/orders/${byKey.body.reference}/submit-tx`, {
    token: admin.token,
    body: { txId },
  });
  expect(attributed.status, attributed.text).toBe(202);
  const timeline = await h.auditOf(shop, byKey.body.reference);
  for (const type of ['tx.submitted', 'status.changed'])
    expect(timeline.find((e) => e.type === type)).toMatchObject({
      actor: 'member',
      data: { memberId: admin.id, memberEmail: admin.email },
    });
  await h.deliverWebhooks();
  expect(hooksOf(shop.path, 'order.created').at(-1)!.data).toMatchObject({
    actor: 'api_key',
    apiKeyId: madeKey.body.id,
  });
  expect(hooksOf(shop.path, 'order.confirming').at(-1)!.data).toMatchObject({
    actor: 'member',
    memberId: admin.id,
    memberEmail: admin.email,
  });
});

it("names the finance member on a payout's event, and the admin who cancels a subscription", async () => {
  const { shop } = await solana.newShop(h);
  const finance = await addMember(h.server, shop.id, 'finance');
  const payout = await h.server.api('POST', '/payouts', {
    token: finance.token,
    body: {
      items: [{ network: 'SOLANA', token: 'USDT', to: Keypair.generate().publicKey.toBase58(), amount: '1' }],
    },
  });
  expect(payout.status, payout.text).toBe(201);
  const subscription = await h.server.api('POST', '/subscriptions', {
    token: shop.token,
    body: { network: 'SOLANA', token: 'USDT', amount: '5', interval: 'month', trialDays: 7 },
  });
  expect(subscription.status, subscription.text).toBe(201);
  const admin = await addMember(h.server, shop.id, 'admin');
  const canceled = await h.server.api('POST', `/subscriptions/${subscription.body.id}/cancel`, {
    token: admin.token,
    body: {},
  });
  expect(canceled.status, canceled.text).toBe(200);
  await h.deliverWebhooks();
  expect(hooksOf(shop.path, 'payout.created').at(-1)!.data).toMatchObject({
    actor: 'member',
    memberId: finance.id,
    memberEmail: finance.email,
  });
  expect(hooksOf(shop.path, 'subscription.created').at(-1)!.data).toMatchObject({
    actor: 'member',
    memberEmail: shop.email,
  });
  expect(hooksOf(shop.path, 'subscription.canceled').at(-1)!.data).toMatchObject({
    actor: 'member',
    memberId: admin.id,
    memberEmail: admin.email,
  });
});
