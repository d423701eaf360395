import { createHmac } from 'node:crypto';
import { Sequelize } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../support/members';
import { TEST_BOT_TOKEN, useDeliveryStack, type DeliveryStack } from '../support/delivery-stack';
import {
  createTestDatabase,
  expectErrorBody,
  newMerchant,
  requestSolanaOrder,
  startTestServer,
  newApiKey,
} from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { startWebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import { until } from '../support/until';

const BOT_TOKEN = TEST_BOT_TOKEN;

let server: TestServer;
let receiver: DeliveryStack['receiver'];
let telegram: DeliveryStack['telegram'];
useDeliveryStack(
  { JOB_EXPIRE_ORDERS_CRON: '* * * * * *', WEBHOOK_MAX_ATTEMPTS: '4' },
  (stack) => ({ server, receiver, telegram } = stack),
);

/** A merchant whose webhooks go to a path of the shared receiver, so tests do not see each other's. */
async function merchantWithWebhooks(opts: { secret?: boolean } = {}) {
  const m = await newMerchant(server, { wallets: ['SOLANA'] });
  const path = `/m/${m.id}`;
  const url = receiver.url.replace('/hooks', path);
  let secret: string | undefined;
  if (opts.secret !== false) {
    const res = await server.api('POST', '/users/me/webhook-secret', { token: m.token });
    secret = res.body.webhook_secret;
  }
  expect(
    (await server.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: url } })).status,
  ).toBe(200);
  const mine = () =>
    receiver.received.filter((r) => r.headers['x-webhook-id'] && r.json.data?.order && r.url === path);
  return { ...m, url, secret, path, mine };
}

async function createOrder(token: string, body: Record<string, unknown> = {}) {
  const res = await server.api('POST', '/orders', {
    token,
    body: { network: 'SOLANA', token: 'USDT', amount: '12.5', ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { reference: string; [k: string]: unknown };
}

function verifySignature(hook: ReceivedWebhook, secret: string) {
  const header = String(hook.headers['x-webhook-signature']);
  const t = /t=(\d+)/.exec(header)![1]!;
  const expected = createHmac('sha256', secret).update(`${t}.${hook.body}`).digest('hex');
  return header.split(',').some((part) => part === `v1=${expected}`);
}

describe('webhooks', () => {
  it('sends order.created signed with the merchant secret, and records the attempt', async () => {
    const m = await merchantWithWebhooks();
    const order = await createOrder(m.token);
    const [hook] = await until('the expected state', () => m.mine().length > 0 && m.mine());
    expect(hook!.json).toMatchObject({
      type: 'order.created',
      data: { order: { reference: order.reference, status: 'PENDING' } },
    });
    expect(hook!.json.id).toMatch(/^evt_/);
    expect(hook!.headers['x-webhook-id']).toBe(hook!.json.id);
    expect(Math.abs(Number(hook!.headers['x-webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifySignature(hook!, m.secret!)).toBe(true);
    expect(verifySignature(hook!, 'whsec_wrong')).toBe(false);
    expect(hook!.json.data.order).toEqual(order);

    const history = await until('the expected state', async () => {
      const res = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, {
        token: m.token,
      });
      return res.body.items.length > 0 && res.body.items;
    });
    expect(history[0]).toMatchObject({
      eventId: hook!.json.id,
      eventType: 'order.created',
      url: m.url,
      attempt: 1,
      requestBody: hook!.body,
      responseStatus: 200,
      responseBody: 'ok',
      error: null,
      nextRetryAt: null,
    });
    expect(history[0].durationMs).toBeGreaterThanOrEqual(0);
    const audit = await server.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
    expect(audit.body.items.map((e: { type: string }) => e.type)).toEqual([
      'order.created',
      'webhook.delivered',
    ]);
  });

  it("prefers the order's webhookUrl over the profile's", async () => {
    const m = await merchantWithWebhooks();
    const orderUrl = receiver.url.replace('/hooks', `/order-level/${m.id}`);
    const order = await createOrder(m.token, { webhookUrl: orderUrl });
    await until('the expected state', () => receiver.received.some((r) => r.url === `/order-level/${m.id}`));
    expect(m.mine()).toHaveLength(0);
    const history = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, {
      token: m.token,
    });
    expect(history.body.items[0].url).toBe(orderUrl);
  });

  it('retries failures with exponential backoff, keeping one event id, until delivered', async () => {
    const m = await merchantWithWebhooks();
    let calls = 0;
    receiver.setResponder((hook) =>
      hook.url === m.path && ++calls <= 2 ? { status: 500, body: 'boom' } : { status: 200, body: 'ok' },
    );
    const order = await createOrder(m.token);
    const history = await until('the expected state', async () => {
      const res = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, {
        token: m.token,
      });
      return (
        res.body.items.some((d: { responseStatus: number }) => d.responseStatus === 200) && res.body.items
      );
    });
    receiver.setResponder(() => ({ status: 200, body: 'ok' }));
    expect(
      history.map((d: { attempt: number; responseStatus: number }) => [d.attempt, d.responseStatus]),
    ).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(history[0].error).toBe('HTTP 500');
    expect(history[0].responseBody).toBe('boom');
    expect(new Set(m.mine().map((h) => h.headers['x-webhook-id'])).size).toBe(1);
    // Backoff: 300 ms then 600 ms (the job ticks every second, so the gaps are at least that).
    const t = history.map((d: { createdAt: string }) => new Date(d.createdAt).getTime());
    expect(new Date(history[0].nextRetryAt).getTime() - t[0]).toBe(300);
    expect(new Date(history[1].nextRetryAt).getTime() - t[1]).toBe(600);
    expect(history[2].nextRetryAt).toBeNull();
  });

  it('records an answer with a NUL byte, which PostgreSQL text cannot hold', async () => {
    const m = await merchantWithWebhooks();
    receiver.setResponder((hook) =>
      hook.url === m.path ? { status: 200, body: 'ok\u0000then' } : { status: 200, body: 'ok' },
    );
    try {
      const order = await createOrder(m.token);
      const history = await until('the attempt recorded', async () => {
        const res = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, {
          token: m.token,
        });
        return res.body.items.length > 0 && res.body.items;
      });
      // Before, the attempt was never recorded: its task stayed leased, to be sent again when the
      // lease ran out, and again, never spending its retries.
      expect(history).toMatchObject([
        { attempt: 1, responseStatus: 200, responseBody: 'okthen', error: null },
      ]);
    } finally {
      receiver.setResponder(() => ({ status: 200, body: 'ok' }));
    }
  });

  it('gives up after WEBHOOK_MAX_ATTEMPTS, and says so in the audit', async () => {
    const m = await merchantWithWebhooks();
    receiver.setResponder((hook) => (hook.url === m.path ? { status: 503 } : { status: 200 }));
    const order = await createOrder(m.token);
    const audit = await until(
      'the expected state',
      async () => {
        const res = await server.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
        return res.body.items.some((e: { type: string }) => e.type === 'webhook.gave_up') && res.body.items;
      },
      30_000,
    );
    receiver.setResponder(() => ({ status: 200, body: 'ok' }));
    expect(
      audit
        .filter((e: { type: string }) => e.type.startsWith('webhook.'))
        .map((e: { type: string }) => e.type),
    ).toEqual(['webhook.failed', 'webhook.failed', 'webhook.failed', 'webhook.gave_up']);
    const history = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, {
      token: m.token,
    });
    expect(history.body.items).toHaveLength(4);
    expect(history.body.items[3].nextRetryAt).toBeNull();
    await new Promise((r) => setTimeout(r, 2500));
    expect(
      (await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, { token: m.token })).body
        .items,
    ).toHaveLength(4);
  });

  it('treats a redirect and a slow answer as failures (no redirect is followed)', async () => {
    const m = await merchantWithWebhooks();
    let n = 0;
    receiver.setResponder((hook) => {
      if (hook.url !== m.path) return { status: 200 };
      n++;
      return n === 1 ? { status: 302, body: '' } : n === 2 ? { status: 200, delayMs: 3000 } : { status: 204 };
    });
    const order = await createOrder(m.token);
    const history = await until(
      'the expected state',
      async () => {
        const res = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, {
          token: m.token,
        });
        return res.body.items.length >= 3 && res.body.items;
      },
      30_000,
    );
    receiver.setResponder(() => ({ status: 200, body: 'ok' }));
    expect(history[0]).toMatchObject({ responseStatus: 302, error: 'HTTP 302' });
    expect(history[1]).toMatchObject({ responseStatus: null, error: 'timeout after 1500 ms' });
    expect(history[2]).toMatchObject({ responseStatus: 204, error: null });
  });

  it('holds webhooks until a signing secret exists (spending no attempts), then delivers them signed', async () => {
    const m = await merchantWithWebhooks({ secret: false });
    const order = await createOrder(m.token);
    await new Promise((r) => setTimeout(r, 2500)); // a few delivery runs while held
    const held = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, { token: m.token });
    expect(held.body.items).toEqual([]);
    expect(m.mine()).toHaveLength(0);
    const secret = (await server.api('POST', '/users/me/webhook-secret', { token: m.token })).body
      .webhook_secret;
    const [hook] = await until('the expected state', () => m.mine().length > 0 && m.mine(), 45_000);
    expect(verifySignature(hook!, secret)).toBe(true);
    const history = await until('the expected state', async () => {
      const res = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, {
        token: m.token,
      });
      return res.body.items.length > 0 && res.body.items;
    });
    expect(
      history.map((d: { attempt: number; responseStatus: number }) => [d.attempt, d.responseStatus]),
    ).toEqual([[1, 200]]);
  }, 60_000);

  it('sends to the webhook URL in force now: a corrected URL gets pending and redelivered events', async () => {
    const m = await merchantWithWebhooks();
    receiver.setResponder((hook) => (hook.url === m.path ? { status: 404 } : { status: 200, body: 'ok' }));
    const order = await createOrder(m.token);
    const [failed] = await until('the expected state', async () => {
      const res = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, {
        token: m.token,
      });
      return res.body.items.length > 0 && res.body.items;
    });
    expect(failed).toMatchObject({ url: m.url, responseStatus: 404 });
    const fixedPath = `/fixed/${m.id}`;
    const fixed = receiver.url.replace('/hooks', fixedPath);
    await server.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: fixed } });
    const again = await server.api(
      'POST',
      `/orders/${order.reference}/webhook-deliveries/${failed.id}/redeliver`,
      {
        token: m.token,
      },
    );
    receiver.setResponder(() => ({ status: 200, body: 'ok' }));
    expect(again.body).toMatchObject({ url: fixed, responseStatus: 200 });
    expect(receiver.received.some((r) => r.url === fixedPath && r.json.id === failed.eventId)).toBe(true);
  });

  it('signs with both secrets for 24 h after a rotation', async () => {
    const m = await merchantWithWebhooks();
    const rotated = await server.api('POST', '/users/me/webhook-secret', { token: m.token });
    expect(new Date(rotated.body.previous_secret_expires_at).getTime() - Date.now()).toBeGreaterThan(
      23.9 * 3600 * 1000,
    );
    await createOrder(m.token);
    const [hook] = await until('the expected state', () => m.mine().length > 0 && m.mine());
    expect(String(hook!.headers['x-webhook-signature']).match(/v1=/g)).toHaveLength(2);
    expect(verifySignature(hook!, m.secret!)).toBe(true);
    expect(verifySignature(hook!, rotated.body.webhook_secret)).toBe(true);
  });

  it('redelivers a recorded event on request, with the same id and body', async () => {
    const m = await merchantWithWebhooks();
    const order = await createOrder(m.token);
    const [first] = await until('the expected state', async () => {
      const res = await server.api('GET', `/orders/${order.reference}/webhook-deliveries`, {
        token: m.token,
      });
      return res.body.items.length > 0 && res.body.items;
    });
    const again = await server.api(
      'POST',
      `/orders/${order.reference}/webhook-deliveries/${first.id}/redeliver`,
      { token: m.token },
    );
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      eventId: first.eventId,
      attempt: 2,
      responseStatus: 200,
      requestBody: first.requestBody,
    });
    expect(m.mine().filter((h) => h.json.id === first.eventId)).toHaveLength(2);
    // The timeline names who asked for each redelivery: the member, or the API key; the service's
    // own attempts stay `system`.
    const developer = await addMember(server, m.id, 'developer');
    const scopes = ['orders:write', 'orders:read'];
    const key = await newApiKey(server.api, m.token, scopes);
    for (const token of [developer.token, key]) {
      const res = await server.api(
        'POST',
        `/orders/${order.reference}/webhook-deliveries/${first.id}/redeliver`,
        {
          token,
        },
      );
      expect(res.status, res.text).toBe(200);
    }
    const audit = await server.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
    const sends = (audit.body.items as { actor: string; data: Record<string, unknown> }[]).filter(
      (e) => e.data.eventId === first.eventId && e.data.manual === true,
    );
    expect(sends.map((e) => [e.actor, e.data.memberEmail ?? e.data.apiKeyName])).toEqual([
      ['member', m.email],
      ['member', developer.email],
      ['api_key', scopes.join(' ')],
    ]);
    const scheduled = (
      audit.body.items as { type: string; actor: string; data: { manual?: boolean } }[]
    ).find((e) => e.type === 'webhook.delivered' && !e.data.manual);
    expect(scheduled?.actor).toBe('system');
    expectErrorBody(
      await server.api('POST', `/orders/${order.reference}/webhook-deliveries/999999999/redeliver`, {
        token: m.token,
      }),
      404,
      'NOT_FOUND',
    );
    const other = await newMerchant(server);
    expectErrorBody(
      await server.api('POST', `/orders/${order.reference}/webhook-deliveries/${first.id}/redeliver`, {
        token: other.token,
      }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('order events', () => {
  it('emits order.confirming when a transaction is reported', async () => {
    const m = await merchantWithWebhooks();
    const order = await createOrder(m.token);
    const { encodeBase58 } = await import('../../server/lib/base58');
    const sig = encodeBase58(new Uint8Array(64).fill(7));
    expect(
      (
        await server.api('POST', `/orders/${order.reference}/submit-tx`, {
          token: m.token,
          body: { txId: sig },
        })
      ).status,
    ).toBe(202);
    const hooks = await until(
      'the expected state',
      () => m.mine().some((h) => h.json.type === 'order.confirming') && m.mine(),
    );
    const confirming = hooks.find((h) => h.json.type === 'order.confirming')!;
    expect(confirming.json.data.order).toMatchObject({ reference: order.reference, status: 'CONFIRMING' });
  });

  it('expires due orders once, with an audit entry and an order.expired event', async () => {
    const m = await merchantWithWebhooks();
    const order = await createOrder(m.token, { expiresInSeconds: 60 });
    await server.deps.db.sequelize.query(
      `UPDATE orders SET expires_at = now() - interval '1 second' WHERE reference = :ref`,
      {
        replacements: { ref: order.reference },
      },
    );
    const hooks = await until(
      'the expected state',
      () => m.mine().some((h) => h.json.type === 'order.expired') && m.mine(),
    );
    expect(hooks.find((h) => h.json.type === 'order.expired')!.json.data.order.status).toBe('EXPIRED');
    expect((await server.api('GET', `/orders/${order.reference}`, { token: m.token })).body.status).toBe(
      'EXPIRED',
    );
    await server.jobs.runNow('expire-orders');
    const audit = await server.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
    const changes = audit.body.items.filter((e: { type: string }) => e.type === 'status.changed');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      actor: 'system',
      data: { from: 'PENDING', to: 'EXPIRED', reason: 'expired without payment' },
    });
  });
});

describe('messenger', () => {
  /** A merchant with a Solana wallet whose messenger sends to a chat of its own. */
  async function messengerMerchant() {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const chatId = String(-1000000000000 - Math.floor(Math.random() * 1e9));
    await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { messenger_chat_id: chatId, messenger_bot_token: BOT_TOKEN },
    });
    return { m, chatId };
  }

  it('sends a readable Telegram message to the profile chat and records it without the token', async () => {
    const { m, chatId } = await messengerMerchant();
    const order = await createOrder(m.token, { description: 'Blue mug' });
    const [message] = await until(
      'the expected state',
      () =>
        telegram.sent.filter((s) => s.chatId === chatId).length > 0 &&
        telegram.sent.filter((s) => s.chatId === chatId),
    );
    for (const part of [
      `${order.amount} USDT`,
      'SOLANA',
      'PENDING',
      order.reference,
      'Blue mug',
      `http://pay.example.test/checkout/${order.reference}`,
    ])
      expect(message!.text).toContain(part);
    const history = await until('the expected state', async () => {
      const res = await server.api('GET', `/orders/${order.reference}/messenger-deliveries`, {
        token: m.token,
      });
      return res.body.items.length > 0 && res;
    });
    expect(history.body.items[0]).toMatchObject({
      eventType: 'order.created',
      chatId,
      status: 'SENT',
      responseStatus: 200,
      attempt: 1,
    });
    expect(history.body.items[0].text).toBe(message!.text);
    expect(history.body.items[0].durationMs).toBeGreaterThanOrEqual(0);
    const alias = await server.api('GET', `/orders/${order.reference}/telegram-deliveries`, {
      token: m.token,
    });
    expect(alias.body).toEqual(history.body);
    const audit = await server.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
    for (const text of [history.text, alias.text, audit.text])
      expect(text).not.toContain(BOT_TOKEN.split(':')[1]);
  });

  it("uses the order's messengerChatId, and honours Telegram's 429 retry_after", async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { messenger_chat_id: '111', messenger_bot_token: BOT_TOKEN },
    });
    const chatId = String(Math.floor(Math.random() * 1e12));
    telegram.failNextWith({ status: 429, description: 'Too Many Requests: retry after 2', retryAfter: 2 });
    const order = await createOrder(m.token, { messengerChatId: chatId });
    const history = await until('the expected state', async () => {
      const res = await server.api('GET', `/orders/${order.reference}/messenger-deliveries`, {
        token: m.token,
      });
      return res.body.items.some((d: { status: string }) => d.status === 'SENT') && res.body.items;
    });
    expect(
      history.map((d: { status: string; responseStatus: number }) => [d.status, d.responseStatus]),
    ).toEqual([
      ['FAILED', 429],
      ['SENT', 200],
    ]);
    expect(history[0].chatId).toBe(chatId);
    expect(
      new Date(history[1].createdAt).getTime() - new Date(history[0].createdAt).getTime(),
    ).toBeGreaterThanOrEqual(2000);
  });

  it('records a refused bot token as a failure, without the token', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const wrong = '987654321:ZZHdqTcvCH1vGWJxfSeofSAs0K5PALDsawZ';
    await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { messenger_chat_id: '222', messenger_bot_token: wrong },
    });
    const order = await createOrder(m.token);
    const history = await until('the expected state', async () => {
      const res = await server.api('GET', `/orders/${order.reference}/messenger-deliveries`, {
        token: m.token,
      });
      return res.body.items.length > 0 && res;
    });
    expect(history.body.items[0]).toMatchObject({ status: 'FAILED', responseStatus: 401 });
    expect(history.text).not.toContain(wrong.split(':')[1]);
  });

  it("shows a key without subscriptions:read no send of a subscription's events", async () => {
    const { m } = await messengerMerchant();
    const made = await server.api('POST', '/subscriptions', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '3.5', interval: 'month' },
    });
    expect(made.status, made.text).toBe(201);
    const path = `/orders/${made.body.latestOrderReference}/messenger-deliveries`;
    const all = await until('the expected state', async () => {
      const res = await server.api('GET', path, { token: m.token });
      const types = res.body.items.map((d: { eventType: string }) => d.eventType);
      return types.includes('order.created') && types.includes('subscription.order_created') && types;
    });
    const key = (scopes: string[]) => newApiKey(server.api, m.token, scopes);
    const typesFor = async (token: string) =>
      (await server.api('GET', path, { token })).body.items.map((d: { eventType: string }) => d.eventType);
    expect(await typesFor(await key(['orders:read']))).toEqual(
      all.filter((t: string) => !t.startsWith('subscription.')),
    );
    expect(await typesFor(await key(['orders:read', 'subscriptions:read']))).toEqual(all);
  });
});

describe('SSRF guard', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    // A database of its own: the permissive server's workers must not deliver this one's events.
    // WEBHOOK_ALLOW_PRIVATE unset, in NODE_ENV=test: private destinations are refused all the same.
    guarded = await startTestServer({
      DATABASE_URL: await createTestDatabase(),
      WEBHOOK_ALLOW_PRIVATE: '',
      JOB_DELIVER_EVENTS_CRON: '* * * * * *',
      // The operator's own setting, on loopback here: not a merchant's destination, so not guarded.
      MESSENGER_API_BASE_URL: telegram.baseUrl,
    });
  });

  it('is on unless WEBHOOK_ALLOW_PRIVATE=true, whatever NODE_ENV says', () => {
    expect(guarded.config.NODE_ENV).toBe('test');
    expect(guarded.config.webhookAllowPrivate).toBe(false);
    expect(server.config.webhookAllowPrivate).toBe(true);
  });
  afterAll(() => guarded?.stop());

  it.each([
    'http://127.0.0.1/hook',
    'http://localhost:8080/x',
    'http://10.1.2.3/x',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/x',
    'http://192.168.0.5/x',
    'http://[::ffff:7f00:1]/x',
    'http://[64:ff9b::a9fe:a9fe]/latest/meta-data',
    'http://[2002:a00:1::1]/x',
    'http://[fec0::1]/x',
  ])('refuses %s at save time', async (url) => {
    const m = await newMerchant(guarded, { wallets: ['SOLANA'] });
    expectErrorBody(
      await guarded.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: url } }),
      400,
      'VALIDATION_ERROR',
    );
    expectErrorBody(await requestSolanaOrder(guarded, m.token, { webhookUrl: url }), 400, 'VALIDATION_ERROR');
  });

  it('refuses a private destination at send time too', async () => {
    const m = await newMerchant(guarded, { wallets: ['SOLANA'] });
    await guarded.api('POST', '/users/me/webhook-secret', { token: m.token });
    // A URL that was stored before the guard (or whose DNS changed since) is checked again when sending.
    await guarded.deps.db.sequelize.query('UPDATE merchants SET webhook_url = :url WHERE id = :id', {
      replacements: { url: receiver.url, id: m.id },
    });
    await guarded.deps.db.changes.sync(); // the server hears of the change when it commits
    const before = receiver.received.length;
    const res = await requestSolanaOrder(guarded, m.token);
    const history = await until('the expected state', async () => {
      const h = await guarded.api('GET', `/orders/${res.body.reference}/webhook-deliveries`, {
        token: m.token,
      });
      return h.body.items[0];
    });
    expect(history.error).toMatch(/private or reserved/);
    expect(receiver.received.length).toBe(before);
  });

  it('refuses a private destination on POST /users/me/webhook-test: no answer of it reaches the caller', async () => {
    const m = await newMerchant(guarded);
    await guarded.api('POST', '/users/me/webhook-secret', { token: m.token });
    const before = receiver.received.length;
    for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
      await guarded.deps.db.sequelize.query('UPDATE merchants SET webhook_url = :url WHERE id = :id', {
        replacements: { url, id: m.id },
      });
      await guarded.deps.db.changes.sync();
      const res = await guarded.api('POST', '/users/me/webhook-test', { token: m.token });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ url, responseStatus: null, responseBody: null });
      expect(res.body.error).toMatch(/private or reserved/);
    }
    expect(receiver.received.length).toBe(before);
  });

  it("still sends messenger messages to the operator's MESSENGER_API_BASE_URL on loopback", async () => {
    const m = await newMerchant(guarded);
    const saved = await guarded.api('PATCH', '/users/me', {
      token: m.token,
      body: { messenger_chat_id: '-100999', messenger_bot_token: BOT_TOKEN },
    });
    expect(saved.status, saved.text).toBe(200);
    const res = await guarded.api('POST', '/users/me/messenger-test', { token: m.token });
    expect(res.body).toMatchObject({ chatId: '-100999', status: 'SENT', responseStatus: 200, error: null });
    expect(telegram.sent.filter((s) => s.chatId === '-100999')).toHaveLength(1);
  });

  it('lets a private destination through with WEBHOOK_ALLOW_PRIVATE=true', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    await server.api('POST', '/users/me/webhook-secret', { token: m.token });
    const url = receiver.url.replace('/hooks', `/allowed/${m.id}`);
    const saved = await server.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: url } });
    expect(saved.status, saved.text).toBe(200);
    const order = await requestSolanaOrder(server, m.token, { webhookUrl: url });
    expect(order.status, order.text).toBe(201);
    const test = await server.api('POST', '/users/me/webhook-test', { token: m.token });
    expect(test.body).toMatchObject({ url, error: null });
    expect(test.body.responseStatus).toBeGreaterThanOrEqual(200);
    expect(receiver.received.some((r) => r.url === `/allowed/${m.id}`)).toBe(true);
  });
});

describe('graceful shutdown', () => {
  it('finishes a delivery in flight and records it before the server stops', async () => {
    const slow = await startWebhookReceiver();
    slow.setResponder(() => ({ status: 200, body: 'slow ok', delayMs: 1500 }));
    const own = await startTestServer({
      DATABASE_URL: await createTestDatabase(),
      JOB_DELIVER_EVENTS_CRON: '* * * * * *',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    let stopped = false;
    try {
      const m = await newMerchant(own, { wallets: ['SOLANA'] });
      await own.api('POST', '/users/me/webhook-secret', { token: m.token });
      await own.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: slow.url } });
      const order = await own.api('POST', '/orders', {
        token: m.token,
        body: { network: 'SOLANA', token: 'USDT', amount: '3' },
      });
      await slow.waitFor((r) => r.length > 0); // the send is now in flight (answer in 1.5 s)
      await own.stop();
      stopped = true;
      // The stopped server closed its pool: read what it left through a fresh connection.
      const check = new Sequelize(own.config.DATABASE_URL!, { logging: false });
      try {
        const [rows] = await check.query(
          `SELECT d.status, d.attempts, w.response_status FROM event_deliveries d
             JOIN events e ON e.id = d.event_id JOIN orders o ON o.id = e.order_id
             LEFT JOIN webhook_deliveries w ON w.delivery_id = d.id
            WHERE o.reference = :ref`,
          { replacements: { ref: order.body.reference } },
        );
        expect(rows).toEqual([{ status: 'DELIVERED', attempts: 1, response_status: 200 }]);
      } finally {
        await check.close();
      }
    } finally {
      if (!stopped) await own.stop();
      await slow.stop();
    }
  }, 30_000);
});
