import { Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { parseUnits } from '../../contract/decimal';
import { startPaymentHarness, sleep, usePaymentStack, type PaymentHarness } from '../support/payment-harness';
import { startSmtpServer, type SmtpServer } from '../support/smtp-server';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { expectErrorBody, startTestServer, newApiKey } from '../support/test-server';

/**
 * Subscriptions (issue 30) on the local Solana chain, with days of 2 seconds
 * (SUBSCRIPTION_DAY_SECONDS) and the jobs driven by hand: each period's order made once, paid by a
 * real transfer, or left to expire.
 */

const DAY_SECONDS = 2;
const DAY_MS = DAY_SECONDS * 1000;
let solana: LocalSolana;
let usdtMint: PublicKey;
let h: PaymentHarness;

let env: Record<string, string>;
let smtp: SmtpServer;

usePaymentStack(
  async () => {
    [solana, smtp] = await Promise.all([startLocalSolana(), startSmtpServer()]);
    usdtMint = await solana.createMint();
    env = {
      SOLANA_RPC_URL: solana.url,
      USDT_MINT_SOLANA: usdtMint.toBase58(),
      SOLANA_COMMITMENT: 'confirmed',
      POLYGON_RPC_URL: 'none',
      ETHEREUM_RPC_URL: 'none',
      SUBSCRIPTION_DAY_SECONDS: String(DAY_SECONDS),
      // Reminders 12 hours (a second here) before an order expires.
      SUBSCRIPTION_REMINDER_HOURS: '12',
      // Past due for two days (4 s): canceled.
      SUBSCRIPTION_CANCEL_AFTER_DAYS: '2',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Shop <billing@example.test>',
    };
    h = await startPaymentHarness(env);
  },
  () => [h, solana, smtp],
);

type Shop = Awaited<ReturnType<PaymentHarness['newShop']>>;
type Sub = {
  id: string;
  status: string;
  latestOrderReference: string | null;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  nextOrderAt: string | null;
  manageUrl: string;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
};
type SubOrder = {
  reference: string;
  status: string;
  amount: string;
  period: { index: number; start: string; end: string };
};

const newShop = () => h.newShop('SOLANA', Keypair.generate().publicKey.toBase58());

async function subscribe(shop: Shop, body: Record<string, unknown>) {
  const res = await h.server.api<Sub>('POST', '/subscriptions', {
    token: shop.token,
    body: { network: 'SOLANA', token: 'USDT', amount: '3.5', interval: 'day', ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const getSub = async (shop: Shop, id: string) => {
  const res = await h.server.api<Sub>('GET', `/subscriptions/${id}`, { token: shop.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const ordersOf = async (shop: Shop, id: string) => {
  const res = await h.server.api<{ items: SubOrder[] }>('GET', `/subscriptions/${id}/orders?per_page=50`, {
    token: shop.token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.items;
};
const bill = () => h.server.jobs.runNow('bill-subscriptions');
const expire = () => h.server.jobs.runNow('expire-orders');

/** Pays an order with a transfer tagged with its reference (nobody reports it: the scanner finds it). */
async function pay(shop: Shop, reference: string) {
  const order = await h.getOrder(shop, reference);
  const payer = await solana.newPayer({ mint: usdtMint });
  await solana.transfer({
    payer,
    recipientOwner: new PublicKey(shop.wallet),
    mint: usdtMint,
    amountUnits: parseUnits(order.amount, 6),
    reference: new PublicKey(reference),
  });
  await h.settle(shop, reference, 'PAID');
}

/** One subscription's events the shop's webhook received, in order, once the due ones are delivered. */
async function subscriptionEvents(shop: Shop, id: string): Promise<string[]> {
  await h.deliverWebhooks();
  return h.receiver.received
    .filter(
      (r) =>
        r.url === shop.path && (r.json.data as { subscription?: { id: string } }).subscription?.id === id,
    )
    .map((r, i) => ({
      type: r.json.type as string,
      at: String((r.json as { createdAt?: string }).createdAt),
      i,
    }))
    .sort((a, b) => a.at.localeCompare(b.at) || a.i - b.i)
    .map((e) => e.type);
}

/** Waits (real time) until `at`, then runs the billing job. */
async function billAt(at: string | Date | null) {
  if (at === null) throw new Error('nothing to wait for');
  const wait = new Date(at).getTime() - Date.now();
  if (wait > 0) await sleep(wait + 50);
  await bill();
}

describe('a daily subscription', () => {
  it('makes one order per period, paid for three periods, ACTIVE from the first payment', async () => {
    const shop = await newShop();
    const sub = await subscribe(shop, { customer: { email: 'ana@example.com', name: 'Ana' } });
    // Its first period began at once: its order is in the answer.
    expect(sub.status).toBe('INCOMPLETE');
    expect(sub.latestOrderReference).not.toBeNull();
    expect(sub.manageUrl).toMatch(/\/subscriptions\/manage\/[A-Za-z0-9_-]{43}$/);
    const periodMs = new Date(sub.currentPeriodEnd!).getTime() - new Date(sub.currentPeriodStart!).getTime();
    expect(periodMs).toBe(DAY_MS);

    await pay(shop, sub.latestOrderReference!);
    await bill();
    expect((await getSub(shop, sub.id)).status).toBe('ACTIVE');

    for (let period = 1; period <= 2; period++) {
      const before = await getSub(shop, sub.id);
      await billAt(before.nextOrderAt);
      const now = await getSub(shop, sub.id);
      expect(now.latestOrderReference).not.toBe(before.latestOrderReference);
      await pay(shop, now.latestOrderReference!);
      await bill();
      expect((await getSub(shop, sub.id)).status).toBe('ACTIVE');
    }
    // Billing again changes nothing: one order per period.
    await bill();
    await bill();
    const orders = await ordersOf(shop, sub.id);
    expect(orders.map((o) => [o.period.index, o.status])).toEqual([
      [2, 'PAID'],
      [1, 'PAID'],
      [0, 'PAID'],
    ]);
    // The price, made unique among the wallet's payable orders by at most a few base units.
    for (const o of orders) expect(parseUnits(o.amount, 6) - 3_500_000n).toBeLessThan(1000n);
    // The periods follow each other without a gap.
    expect(orders[1]!.period.end).toBe(orders[0]!.period.start);
    expect(await subscriptionEvents(shop, sub.id)).toEqual([
      'subscription.created',
      'subscription.order_created',
      'subscription.active',
      'subscription.order_created',
      'subscription.order_created',
    ]);
  }, 60_000);

  /** A weekly subscription (14 s) whose first order (payable one day, 2 s) expired unpaid. */
  async function pastDueSubscription() {
    const shop = await newShop();
    const sub = await subscribe(shop, { interval: 'week', dueDays: 1 });
    const first = (await ordersOf(shop, sub.id))[0]!;
    await sleep(DAY_MS + 100);
    await expire();
    await bill();
    return { shop, sub, first };
  }

  it('goes PAST_DUE when its order expires unpaid, makes it again for the same period, and recovers when paid', async () => {
    const { shop, sub, first } = await pastDueSubscription();
    const pastDue = await getSub(shop, sub.id);
    expect(pastDue.status).toBe('PAST_DUE');
    const orders = await ordersOf(shop, sub.id);
    expect(orders.map((o) => [o.period.index, o.status])).toEqual([
      [0, 'PENDING'],
      [0, 'EXPIRED'],
    ]);
    expect(orders[1]!.reference).toBe(first.reference);
    await pay(shop, orders[0]!.reference);
    await bill();
    expect((await getSub(shop, sub.id)).status).toBe('ACTIVE');
    expect(await subscriptionEvents(shop, sub.id)).toEqual([
      'subscription.created',
      'subscription.order_created',
      'subscription.past_due',
      'subscription.order_created',
      'subscription.active',
    ]);
  }, 60_000);

  it("closes the period's remade order when the expired one is paid late: one period, one payment to make", async () => {
    const { shop, sub, first } = await pastDueSubscription();
    const [remade] = await ordersOf(shop, sub.id);
    expect([remade!.period.index, remade!.status]).toEqual([0, 'PENDING']);
    // The customer pays the first order's old link after all (within the late window).
    await pay(shop, first.reference);
    await bill();
    expect((await getSub(shop, sub.id)).status).toBe('ACTIVE');
    // The remade order is payable no more: its checkout says expired, so nobody pays the period twice.
    await expire();
    const orders = await ordersOf(shop, sub.id);
    expect(orders.map((o) => [o.reference, o.status])).toEqual([
      [remade!.reference, 'EXPIRED'],
      [first.reference, 'PAID'],
    ]);
    const info = await h.server.api('GET', `/pay/${remade!.reference}/info`);
    expect(info.body.status).toBe('EXPIRED');
    await h.deliverWebhooks();
    expect(h.webhookTypes(shop, remade!.reference)).toEqual([
      'order.created',
      'subscription.order_created',
      'order.expired',
    ]);
    await expectClosed(shop, remade!.reference);
  }, 60_000);

  /**
   * A closed (superseded) order is never paid again, also within the late window an expired order
   * has: no transaction request, no report, and a transfer tagged with it is nobody's (kept for the
   * merchant to see), not a second payment of the period.
   */
  async function expectClosed(shop: Shop, reference: string) {
    expectErrorBody(await h.server.api('GET', `/pay/tx-request/${reference}`), 409, 'CONFLICT');
    const payer = await solana.newPayer({ mint: usdtMint });
    const txId = await solana.transfer({
      payer,
      recipientOwner: new PublicKey(shop.wallet),
      mint: usdtMint,
      amountUnits: parseUnits('3.5', 6),
      reference: new PublicKey(reference),
    });
    expectErrorBody(await h.submitTx(reference, txId), 409, 'CONFLICT');
    await h.runJobs(async () => {
      const res = await h.server.api('GET', '/users/me/unattributed-payments', { token: shop.token });
      return (res.body.items as { txId: string }[]).some((p) => p.txId === txId);
    });
    await h.expectOrder(shop, reference, 'EXPIRED', '0.000000');
  }

  it('closes every other order of the period paid late, the remade one that expired too', async () => {
    const { shop, sub, first } = await pastDueSubscription();
    const [remade] = await ordersOf(shop, sub.id);
    // The remade order expires unpaid as well: made a third time.
    await sleep(DAY_MS + 100);
    await expire();
    await bill();
    const [third] = await ordersOf(shop, sub.id);
    expect([remade!.reference, third!.reference]).not.toContain(first.reference);
    await pay(shop, first.reference);
    await bill();
    await expire();
    expect((await ordersOf(shop, sub.id)).map((o) => [o.reference, o.status])).toEqual([
      [third!.reference, 'EXPIRED'],
      [remade!.reference, 'EXPIRED'],
      [first.reference, 'PAID'],
    ]);
    // Expired before the late payment, it had a late window of its own: closed for good now too.
    await expectClosed(shop, remade!.reference);
  }, 60_000);

  it("closes the remade order when the expired one is paid late before it expired itself, and another subscription's late payment closes nothing of this one", async () => {
    const [a, b] = await Promise.all([pastDueSubscription(), pastDueSubscription()]);
    const [remadeA] = await ordersOf(a.shop, a.sub.id);
    const [remadeB] = await ordersOf(b.shop, b.sub.id);
    // B's first order is paid late: only B's period is settled.
    await pay(b.shop, b.first.reference);
    await bill();
    await expire();
    expect((await getSub(a.shop, a.sub.id)).status).toBe('PAST_DUE');
    expect((await h.getOrder(a.shop, remadeA!.reference)).status).toBe('PENDING');
    expect((await h.server.api('GET', `/pay/tx-request/${remadeA!.reference}`)).status).toBe(200);
    expect((await h.getOrder(b.shop, remadeB!.reference)).status).toBe('EXPIRED');
    await expectClosed(b.shop, remadeB!.reference);
    // A's remade order is still A's to pay: paid, A is ACTIVE.
    await pay(a.shop, remadeA!.reference);
    await bill();
    expect((await getSub(a.shop, a.sub.id)).status).toBe('ACTIVE');
  }, 60_000);

  it('is CANCELED once past due for SUBSCRIPTION_CANCEL_AFTER_DAYS, its orders remade meanwhile', async () => {
    const shop = await newShop();
    const sub = await subscribe(shop, { interval: 'week', dueDays: 1 });
    const deadline = Date.now() + 20_000;
    while ((await getSub(shop, sub.id)).status !== 'CANCELED') {
      if (Date.now() > deadline) throw new Error('not canceled in time');
      await sleep(250);
      await expire();
      await bill();
    }
    const canceled = await getSub(shop, sub.id);
    expect(canceled.canceledAt).not.toBeNull();
    const orders = await ordersOf(shop, sub.id);
    // The period's order made again after each expiry, all in period 0: 2 days past due is 2 remakes.
    expect(orders.every((o) => o.period.index === 0)).toBe(true);
    expect(orders.length).toBeGreaterThanOrEqual(3);
    expect(
      (await subscriptionEvents(shop, sub.id)).filter((t) => t !== 'subscription.order_created'),
    ).toEqual(['subscription.created', 'subscription.past_due', 'subscription.canceled']);
  }, 30_000);

  it('pauses (no orders) and resumes (the order of the period that holds now, at once)', async () => {
    const shop = await newShop();
    const sub = await subscribe(shop, {});
    await pay(shop, sub.latestOrderReference!);
    const paused = await h.server.api<Sub>('POST', `/subscriptions/${sub.id}/pause`, { token: shop.token });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body).toMatchObject({ status: 'PAUSED', nextOrderAt: null });
    // Two periods go by: nothing is made.
    await sleep(2 * DAY_MS + 100);
    await bill();
    expect(await ordersOf(shop, sub.id)).toHaveLength(1);
    const again = await h.server.api<Sub>('POST', `/subscriptions/${sub.id}/pause`, { token: shop.token });
    expectErrorBody(again, 409, 'CONFLICT');

    const resumed = await h.server.api<Sub>('POST', `/subscriptions/${sub.id}/resume`, { token: shop.token });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.status).toBe('ACTIVE');
    const orders = await ordersOf(shop, sub.id);
    expect(orders).toHaveLength(2);
    // The missed periods were not billed: the new order is the period that holds now.
    expect(orders[0]!.period.index).toBeGreaterThanOrEqual(2);
    expect(resumed.body.latestOrderReference).toBe(orders[0]!.reference);
  }, 60_000);

  it('cancels now (409 the second time) and at period end (no further order, then CANCELED)', async () => {
    const shop = await newShop();
    const now = await subscribe(shop, {});
    const canceled = await h.server.api<Sub>('POST', `/subscriptions/${now.id}/cancel`, {
      token: shop.token,
      body: {},
    });
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'CANCELED', nextOrderAt: null });
    expect(canceled.body.canceledAt).not.toBeNull();
    expectErrorBody(
      await h.server.api('POST', `/subscriptions/${now.id}/cancel`, { token: shop.token, body: {} }),
      409,
      'CONFLICT',
    );

    const later = await subscribe(shop, {});
    await pay(shop, later.latestOrderReference!);
    await bill();
    const scheduled = await h.server.api<Sub>('POST', `/subscriptions/${later.id}/cancel`, {
      token: shop.token,
      body: { atPeriodEnd: true },
    });
    expect(scheduled.body).toMatchObject({ status: 'ACTIVE', cancelAtPeriodEnd: true, nextOrderAt: null });
    await billAt(scheduled.body.currentPeriodEnd);
    expect((await getSub(shop, later.id)).status).toBe('CANCELED');
    expect(await ordersOf(shop, later.id)).toHaveLength(1);
  }, 60_000);
});

describe('the rules of the routes', () => {
  it('API keys need the subscription scopes', async () => {
    const shop = await newShop();
    const key = (scopes: string[]) => newApiKey(h.server.api, shop.token, scopes);
    const reader = await key(['subscriptions:read']);
    const orderWriter = await key(['orders:write', 'orders:read']);
    const writer = await key(['subscriptions:write', 'subscriptions:read']);
    const body = { network: 'SOLANA', token: 'USDT', amount: '1', interval: 'month' };
    expectErrorBody(await h.server.api('POST', '/subscriptions', { token: reader, body }), 403, 'FORBIDDEN');
    expectErrorBody(
      await h.server.api('POST', '/subscriptions', { token: orderWriter, body }),
      403,
      'FORBIDDEN',
    );
    expectErrorBody(await h.server.api('GET', '/subscriptions', { token: orderWriter }), 403, 'FORBIDDEN');
    const made = await h.server.api<Sub>('POST', '/subscriptions', { token: writer, body });
    expect(made.status, made.text).toBe(201);
    expect((await h.server.api('GET', `/subscriptions/${made.body.id}`, { token: reader })).status).toBe(200);
    expectErrorBody(
      await h.server.api('POST', `/subscriptions/${made.body.id}/pause`, { token: reader }),
      403,
      'FORBIDDEN',
    );
  });

  it('refuses what cannot be billed, and hides other merchants’ subscriptions', async () => {
    const shop = await newShop();
    const bad = (body: Record<string, unknown>) =>
      h.server.api('POST', '/subscriptions', {
        token: shop.token,
        body: { network: 'SOLANA', token: 'USDT', amount: '1', interval: 'month', ...body },
      });
    expectErrorBody(await bad({ intervalCount: 13 }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await bad({ interval: 'week', dueDays: 8 }), 400, 'VALIDATION_ERROR');
    expectErrorBody(
      await bad({ startAt: new Date(Date.now() - 3_600_000).toISOString() }),
      400,
      'VALIDATION_ERROR',
    );
    expectErrorBody(await bad({ network: 'POLYGON' }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await bad({ amount: undefined }), 400, 'VALIDATION_ERROR');

    const sub = await subscribe(shop, { customer: { email: 'Bea@Example.com' } });
    const other = await newShop();
    expectErrorBody(
      await h.server.api('GET', `/subscriptions/${sub.id}`, { token: other.token }),
      404,
      'NOT_FOUND',
    );
    expectErrorBody(
      await h.server.api('POST', `/subscriptions/${sub.id}/cancel`, { token: other.token, body: {} }),
      404,
      'NOT_FOUND',
    );
    const listed = await h.server.api<{ items: Sub[] }>(
      'GET',
      '/subscriptions?customer_email=bea@example.COM',
      {
        token: shop.token,
      },
    );
    expect(listed.body.items.map((s) => s.id)).toEqual([sub.id]);
    const none = await h.server.api<{ items: Sub[] }>('GET', '/subscriptions', { token: other.token });
    expect(none.body.items).toEqual([]);
  });

  it('with a trial: TRIALING, no order until the trial ends', async () => {
    const shop = await newShop();
    const sub = await subscribe(shop, { trialDays: 1 });
    expect(sub).toMatchObject({ status: 'TRIALING', latestOrderReference: null });
    await bill();
    expect(await ordersOf(shop, sub.id)).toHaveLength(0);
    await billAt(sub.nextOrderAt);
    const after = await getSub(shop, sub.id);
    expect(after.status).toBe('TRIALING');
    expect(after.latestOrderReference).not.toBeNull();
    await pay(shop, after.latestOrderReference!);
    await bill();
    expect((await getSub(shop, sub.id)).status).toBe('ACTIVE');
  }, 30_000);

  it('an Idempotency-Key replays the first answer', async () => {
    const shop = await newShop();
    const send = () =>
      h.server.api<Sub>('POST', '/subscriptions', {
        token: shop.token,
        headers: { 'idempotency-key': 'sub-1' },
        body: { network: 'SOLANA', token: 'USDT', amount: '2', interval: 'month' },
      });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    const listed = await h.server.api<{ items: Sub[] }>('GET', '/subscriptions', { token: shop.token });
    expect(listed.body.items).toHaveLength(1);
  });
});

describe("the customer's page", () => {
  it('shows the plan and the order to pay in the customer’s language, and cancels at period end; its secret is never logged', async () => {
    const shop = await newShop();
    const sub = await subscribe(shop, {
      description: 'Plano <Ouro>',
      customer: { email: 'caio@example.com', language: 'pt-BR' },
    });
    // The page's own URL on this server (PUBLIC_BASE_URL names a host the tests do not resolve).
    const manageUrl = `${h.server.url}${new URL(sub.manageUrl).pathname}`;
    const page = await fetch(manageUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Sua assinatura');
    expect(html).toContain('Plano &lt;Ouro&gt;');
    expect(html).toContain('a cada dia');
    const order = await h.getOrder(shop, sub.latestOrderReference!);
    expect(html).toContain(`href="${order.checkoutUrl}"`);
    expect(html).not.toMatch(/<script|src="http/);
    expect(await (await fetch(`${manageUrl}?lang=es`)).text()).toContain('Tu suscripción');

    const posted = await fetch(manageUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=cancel',
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    expect(await getSub(shop, sub.id)).toMatchObject({ status: 'INCOMPLETE', cancelAtPeriodEnd: true });
    expect(await (await fetch(manageUrl)).text()).toContain('Termina em');

    const wrong = await fetch(manageUrl.replace(/.{4}$/, 'AAAA'));
    expect(wrong.status).toBe(404);
    const secret = sub.manageUrl.split('/').at(-1)!;
    expect(JSON.stringify(h.logs)).not.toContain(secret);
  });
});

describe('several instances', () => {
  it("three instances billing at once make each period's order once", async () => {
    const others = await Promise.all([
      startTestServer({ JOBS: 'none', ...env }),
      startTestServer({ JOBS: 'none', ...env }),
    ]);
    try {
      const shop = await newShop();
      const startAt = new Date(Date.now() + 1500).toISOString();
      const subs = await Promise.all(Array.from({ length: 12 }, () => subscribe(shop, { startAt })));
      await sleep(new Date(startAt).getTime() - Date.now() + 50);
      const servers = [h.server, ...others];
      await Promise.all(
        servers.flatMap((s) => [s.jobs.runNow('bill-subscriptions'), s.jobs.runNow('bill-subscriptions')]),
      );
      for (const sub of subs) {
        const orders = await ordersOf(shop, sub.id);
        expect(orders.map((o) => o.period.index)).toEqual([0]);
        expect((await getSub(shop, sub.id)).latestOrderReference).toBe(orders[0]!.reference);
      }
    } finally {
      await Promise.all(others.map((s) => s.stop()));
    }
  }, 60_000);
});

describe('e-mail to the customer', () => {
  it("mails each period's order with the checkout link and the customer's page, a reminder before it expires, and the receipt when paid", async () => {
    const shop = await newShop();
    const email = `dora-${Date.now()}@example.com`;
    // Weekly, each order payable a day (2 s): its reminder is due 12 hours (1 s) before.
    const sub = await subscribe(shop, { interval: 'week', dueDays: 1, customer: { email, name: 'Dora' } });
    const order = await h.getOrder(shop, sub.latestOrderReference!);
    const mailsTo = () => smtp.received().filter((m) => m.to.includes(email));
    await h.server.jobs.runNow('send-emails');
    const first = await smtp.waitFor((m) => m.to.includes(email));
    expect(first.parsed.text).toContain(order.checkoutUrl);
    expect(first.parsed.text).toContain(sub.manageUrl);
    expect(String(first.parsed.html)).toContain(order.checkoutUrl);

    await sleep(DAY_MS / 2 + 100);
    await bill();
    await h.server.jobs.runNow('send-emails');
    await smtp.waitFor((m) => m.to.includes(email) && m !== first);
    expect(mailsTo()).toHaveLength(2);
    // Billing again sends no second reminder.
    await bill();
    await h.server.jobs.runNow('send-emails');

    await pay(shop, order.reference);
    await h.server.jobs.runNow('send-emails');
    await smtp.waitFor((m) => m.to.includes(email) && mailsTo().length === 3);
    const kinds = (
      await h.server.api<{ items: { kind: string; status: string; to: string }[] }>(
        'GET',
        `/orders/${order.reference}/email-deliveries`,
        { token: shop.token },
      )
    ).body.items;
    expect(kinds.map((k) => [k.kind, k.status, k.to])).toEqual([
      ['order', 'SENT', email],
      ['reminder', 'SENT', email],
      ['receipt', 'SENT', email],
    ]);
  }, 30_000);
});
