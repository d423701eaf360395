import { randomBytes } from 'node:crypto';
import { QueryTypes, Sequelize } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { API_VERSIONS, LATEST_API_VERSION } from '../../contract';
import { migrate } from '../../server/db/migrate';
import * as apiVersionsMigration from '../../server/db/migrations/0014-api-versions';
import { freePort } from '../support/free-port';
import { encodeBase58 } from '../../server/lib/base58';
import { webhooks, type WebhookEvent } from '../../sdk/src/index';
import { TEST_BOT_TOKEN, useDeliveryStack, type DeliveryStack } from '../support/delivery-stack';
import { createTestDatabase, expectErrorBody, newMerchant } from '../support/test-server';
import type { ApiResponse, TestServer } from '../support/test-server';
import type { ReceivedWebhook } from '../support/webhook-receiver';
import { until } from '../support/until';

const BOT_TOKEN = TEST_BOT_TOKEN;

let server: TestServer;
let receiver: DeliveryStack['receiver'];
let telegram: DeliveryStack['telegram'];
useDeliveryStack({}, (stack) => ({ server, receiver, telegram } = stack));

type Merchant = Awaited<ReturnType<typeof newMerchant>>;

/** A merchant whose webhooks go to a path of its own on the shared receiver. */
async function merchantWithWebhooks(opts: { secret?: boolean } = {}) {
  const m = await newMerchant(server, { wallets: ['SOLANA'] });
  const path = `/v/${m.id}`;
  const url = receiver.url.replace('/hooks', path);
  const secret =
    opts.secret === false
      ? undefined
      : ((await server.api('POST', '/users/me/webhook-secret', { token: m.token })).body
          .webhook_secret as string);
  expect((await patch(m, { webhook_url: url })).status).toBe(200);
  const mine = () => receiver.received.filter((r) => r.url === path);
  return { ...m, url, path, secret, mine };
}

const patch = (m: Merchant, body: Record<string, unknown>) =>
  server.api('PATCH', '/users/me', { token: m.token, body });
const profile = async (m: Merchant) => (await server.api('GET', '/users/me', { token: m.token })).body;

async function createOrder(m: Merchant) {
  const res = await server.api('POST', '/orders', {
    token: m.token,
    body: { network: 'SOLANA', token: 'USDT', amount: '7.25' },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { reference: string };
}

/** The stored events of a merchant, oldest first. */
async function storedEvents(merchantId: string) {
  return server.deps.db.sequelize.query<{ id: string; type: string; order_id: string | null; body: string }>(
    'SELECT id, type, order_id, body FROM events WHERE merchant_id = :merchantId ORDER BY created_at, id',
    { replacements: { merchantId }, type: QueryTypes.SELECT },
  );
}

const verify = (hook: ReceivedWebhook, secret: string): WebhookEvent =>
  webhooks.constructEvent({ payload: hook.body, header: hook.headers['x-webhook-signature'], secret });

function expectConflict(res: ApiResponse, ...words: string[]) {
  expectErrorBody(res, 409, 'CONFLICT');
  const message = (res.body as { error: { message: string } }).error.message;
  for (const word of words) expect(message).toContain(word);
}

describe('API versions', () => {
  it('lists the versions once, as dates in order, the first the original payloads and the latest last', () => {
    expect(API_VERSIONS[0]).toBe('2025-01-01');
    for (const version of API_VERSIONS) {
      expect(version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(new Date(`${version}T00:00:00Z`).toISOString().slice(0, 10)).toBe(version);
    }
    const later = API_VERSIONS.slice(1);
    later.forEach((version, i) => expect(version > API_VERSIONS[i]!).toBe(true));
    expect(LATEST_API_VERSION).toBe(API_VERSIONS[API_VERSIONS.length - 1]);
  });

  it('the first webhook secret pins the latest version; rotations and earlier choices keep theirs', async () => {
    const m = await newMerchant(server);
    expect((await profile(m)).webhook_api_version).toBeNull();
    expect((await server.api('POST', '/users/me/webhook-secret', { token: m.token })).status).toBe(200);
    expect((await profile(m)).webhook_api_version).toBe(LATEST_API_VERSION);
    expect((await patch(m, { webhook_api_version: '2025-01-01' })).body.webhook_api_version).toBe(
      '2025-01-01',
    );
    // A rotation is not a first secret: the version stays where the merchant put it.
    await server.api('POST', '/users/me/webhook-secret', { token: m.token });
    expect((await profile(m)).webhook_api_version).toBe('2025-01-01');

    // A version chosen before the first secret is kept by it.
    const early = await newMerchant(server);
    expect((await patch(early, { webhook_api_version: '2025-01-01' })).status).toBe(200);
    await server.api('POST', '/users/me/webhook-secret', { token: early.token });
    expect((await profile(early)).webhook_api_version).toBe('2025-01-01');
  });

  it('a merchant with no pinned version gets events rendered at the latest', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    await createOrder(m);
    const [event] = await storedEvents(m.id);
    expect(JSON.parse(event!.body)).toMatchObject({ type: 'order.created', apiVersion: LATEST_API_VERSION });
  });

  it('events carry apiVersion; PATCH moves it for later events, stored events keep their body', async () => {
    const m = await merchantWithWebhooks();
    const first = await createOrder(m);
    const [hook] = await until('the expected state', () => m.mine().length >= 1 && m.mine());
    const event = verify(hook!, m.secret!);
    expect(event).toMatchObject({ type: 'order.created', apiVersion: LATEST_API_VERSION });
    expect(Object.keys(JSON.parse(hook!.body))).toEqual(['id', 'type', 'apiVersion', 'createdAt', 'data']);
    // The latest version carries the payment options (2026-11-29); earlier ones keep their shape.
    expect((event.data as { order: object }).order).toMatchObject({
      paymentOptions: [{ network: 'SOLANA' }],
      paidWith: null,
    });

    const moved = await patch(m, { webhook_api_version: '2025-01-01' });
    expect(moved.status).toBe(200);
    expect(moved.body.webhook_api_version).toBe('2025-01-01');

    // Order creation (its own statement) and a status change (emitOrderEvent) both follow the move.
    const second = await createOrder(m);
    const claim = await server.api('POST', `/orders/${second.reference}/submit-tx`, {
      token: m.token,
      body: { txId: encodeBase58(randomBytes(64)) },
    });
    expect(claim.status, claim.text).toBe(202);
    const later = await until('the expected state', () => {
      const bodies = m.mine().map((h) => verify(h, m.secret!));
      const created = bodies.find(
        (e) => e.type === 'order.created' && e.data.order.reference === second.reference,
      );
      const confirming = bodies.find((e) => e.type === 'order.confirming');
      return created && confirming && [created, confirming];
    });
    for (const e of later) {
      expect(e.apiVersion).toBe('2025-01-01');
      const order = (e.data as { order: object }).order;
      expect(order).not.toHaveProperty('paymentOptions');
      expect(order).not.toHaveProperty('paidWith');
      expect(order).toHaveProperty('amountReceived');
    }

    // What was stored before the move is what was sent, and stays so.
    const stored = await storedEvents(m.id);
    const firstStored = stored.find((e) => JSON.parse(e.body).data.order?.reference === first.reference)!;
    expect(firstStored.body).toBe(hook!.body);
    expect(JSON.parse(firstStored.body).apiVersion).toBe(LATEST_API_VERSION);
    expect(stored.filter((e) => e.id !== firstStored.id).map((e) => JSON.parse(e.body).apiVersion)).toEqual([
      '2025-01-01',
      '2025-01-01',
    ]);

    // Moving on again: the next events carry the new version.
    expect((await patch(m, { webhook_api_version: '2026-11-24' })).body.webhook_api_version).toBe(
      '2026-11-24',
    );
    const third = await createOrder(m);
    const [thirdEvent] = (await storedEvents(m.id)).filter(
      (e) => JSON.parse(e.body).data.order?.reference === third.reference,
    );
    expect(JSON.parse(thirdEvent!.body).apiVersion).toBe('2026-11-24');
  });

  it('subscriptions (2026-12-01): a merchant pinned before them gets none of their events, and orders without their fields', async () => {
    const m = await merchantWithWebhooks();
    expect((await patch(m, { webhook_api_version: '2026-11-29' })).status).toBe(200);
    const sub = await server.api('POST', '/subscriptions', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '4', interval: 'month' },
    });
    expect(sub.status, sub.text).toBe(201);
    const reference = sub.body.latestOrderReference as string;
    const [created] = await until('the order.created webhook', () => {
      const bodies = m.mine().map((h) => verify(h, m.secret!));
      const found = bodies.find((e) => e.type === 'order.created' && e.data.order.reference === reference);
      return found && [found];
    });
    expect(created!.apiVersion).toBe('2026-11-29');
    const order = (created!.data as { order: object }).order;
    for (const field of ['subscriptionId', 'period', 'customerEmail', 'customerLanguage'])
      expect(order).not.toHaveProperty(field);
    expect(order).toHaveProperty('paymentOptions');
    // Not written at all: neither sent nor listed.
    const types = (await storedEvents(m.id)).map((e) => JSON.parse(e.body).type as string);
    expect(types.some((t) => t.startsWith('subscription.'))).toBe(false);

    // At the latest version: the subscription's events, and its orders say which period they bill.
    expect((await patch(m, { webhook_api_version: LATEST_API_VERSION })).status).toBe(200);
    const second = await server.api('POST', '/subscriptions', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '5', interval: 'month' },
    });
    const latest = (await storedEvents(m.id)).map((e) => JSON.parse(e.body));
    const madeOrder = latest.find((e) => e.type === 'subscription.order_created');
    expect(madeOrder.data.subscription.id).toBe(second.body.id);
    expect(madeOrder.data.order).toMatchObject({ subscriptionId: second.body.id, period: { index: 0 } });
    expect(latest.map((e) => e.type)).toContain('subscription.created');
  });

  it('refuses a version that is not one of API_VERSIONS, and null (400)', async () => {
    const m = await newMerchant(server);
    await server.api('POST', '/users/me/webhook-secret', { token: m.token });
    for (const value of ['2024-01-01', '2026-11-25', 'latest', '', null, 20261124]) {
      const res = await patch(m, { webhook_api_version: value });
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(
        'body.webhook_api_version',
      );
    }
    expect((await profile(m)).webhook_api_version).toBe(LATEST_API_VERSION);
  });
});

describe('POST /users/me/webhook-test', () => {
  it('sends a signed ping now, which the SDK verifies, and records the attempt (no retry, no audit)', async () => {
    const m = await merchantWithWebhooks();
    const res = await server.api('POST', '/users/me/webhook-test', { token: m.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      eventType: 'ping',
      url: m.url,
      attempt: 1,
      responseStatus: 200,
      responseBody: 'ok',
      error: null,
      nextRetryAt: null,
    });
    expect(res.body.durationMs).toBeGreaterThanOrEqual(0);

    // It arrived before the answer: the send is part of the request.
    const [hook] = m.mine();
    expect(hook).toBeDefined();
    const event = verify(hook!, m.secret!);
    expect(event.type).toBe('ping');
    if (event.type !== 'ping') throw new Error('a ping');
    expect(event).toMatchObject({ id: res.body.eventId, apiVersion: LATEST_API_VERSION });
    expect(event.data.message).toMatch(/test delivery/);
    expect(hook!.headers['x-webhook-id']).toBe(res.body.eventId);
    expect(hook!.headers['x-webhook-attempt']).toBe('1');
    expect(res.body.requestBody).toBe(hook!.body);
    expect(() =>
      webhooks.constructEvent({
        payload: hook!.body,
        header: hook!.headers['x-webhook-signature'],
        secret: 'whsec_wrong',
      }),
    ).toThrow();

    // Recorded like any delivery: the event (about no order), its task, the attempt.
    const [stored] = await storedEvents(m.id);
    expect(stored).toMatchObject({ id: res.body.eventId, type: 'ping', order_id: null, body: hook!.body });
    const [attempt] = await server.deps.db.sequelize.query<{ order_id: string | null; status: string }>(
      `SELECT w.order_id, d.status FROM webhook_deliveries w JOIN event_deliveries d ON d.id = w.delivery_id
        WHERE w.event_id = :eventId`,
      { replacements: { eventId: res.body.eventId }, type: QueryTypes.SELECT },
    );
    expect(attempt).toEqual({ order_id: null, status: 'DELIVERED' });

    // The workers never send it again.
    await new Promise((r) => setTimeout(r, 1500));
    expect(m.mine()).toHaveLength(1);
  });

  it('answers with the failure when the receiver fails or cannot be reached, and does not retry', async () => {
    const m = await merchantWithWebhooks();
    receiver.setResponder((hook) =>
      hook.url === m.path ? { status: 500, body: 'boom' } : { status: 200, body: 'ok' },
    );
    try {
      const failed = await server.api('POST', '/users/me/webhook-test', { token: m.token });
      expect(failed.status).toBe(200);
      expect(failed.body).toMatchObject({ responseStatus: 500, responseBody: 'boom', error: 'HTTP 500' });
    } finally {
      receiver.setResponder(() => ({ status: 200, body: 'ok' }));
    }

    const closed = `http://127.0.0.1:${await freePort()}/nobody-here`;
    expect((await patch(m, { webhook_url: closed })).status).toBe(200);
    const unreachable = await server.api('POST', '/users/me/webhook-test', { token: m.token });
    expect(unreachable.status).toBe(200);
    expect(unreachable.body).toMatchObject({ url: closed, responseStatus: null, responseBody: null });
    expect(unreachable.body.error).toMatch(/ECONNREFUSED/);

    const statuses = await server.deps.db.sequelize.query<{ status: string; attempts: number }>(
      `SELECT d.status, d.attempts FROM event_deliveries d JOIN events e ON e.id = d.event_id
        WHERE e.merchant_id = :merchantId ORDER BY d.id`,
      { replacements: { merchantId: m.id }, type: QueryTypes.SELECT },
    );
    expect(statuses).toEqual([
      { status: 'FAILED', attempts: 1 },
      { status: 'FAILED', attempts: 1 },
    ]);
  });

  it('409 without a webhook URL or a signing secret, and at 2025-01-01 (saying to move the version on)', async () => {
    const noUrl = await newMerchant(server);
    await server.api('POST', '/users/me/webhook-secret', { token: noUrl.token });
    expectConflict(await server.api('POST', '/users/me/webhook-test', { token: noUrl.token }), 'webhook_url');

    const noSecret = await merchantWithWebhooks({ secret: false });
    expectConflict(
      await server.api('POST', '/users/me/webhook-test', { token: noSecret.token }),
      'POST /users/me/webhook-secret',
    );

    const pinned = await merchantWithWebhooks();
    await patch(pinned, { webhook_api_version: '2025-01-01' });
    expectConflict(
      await server.api('POST', '/users/me/webhook-test', { token: pinned.token }),
      'webhook_api_version',
      '2026-11-24',
    );
    expect(pinned.mine()).toHaveLength(0);
    expect(await storedEvents(pinned.id)).toEqual([]);
    // Moved on, it may.
    await patch(pinned, { webhook_api_version: '2026-11-24' });
    expect(
      (await server.api('POST', '/users/me/webhook-test', { token: pinned.token })).body.responseStatus,
    ).toBe(200);
  });

  it('is limited to 5 a minute per merchant and channel: then 429 with Retry-After', async () => {
    const m = await merchantWithWebhooks();
    for (let i = 0; i < 5; i++) {
      const res = await server.api('POST', '/users/me/webhook-test', { token: m.token });
      expect(res.status, res.text).toBe(200);
    }
    const limited = await server.api('POST', '/users/me/webhook-test', { token: m.token });
    expectErrorBody(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(m.mine()).toHaveLength(5);
    // The messenger has its own count (here it answers 409: no chat), and so has another merchant.
    expectErrorBody(
      await server.api('POST', '/users/me/messenger-test', { token: m.token }),
      409,
      'CONFLICT',
    );
    const other = await merchantWithWebhooks();
    expect((await server.api('POST', '/users/me/webhook-test', { token: other.token })).status).toBe(200);
  });
});

describe('POST /users/me/messenger-test', () => {
  it('sends the ping text to the chat through the Telegram Bot API now and records the attempt', async () => {
    const m = await newMerchant(server);
    expect((await patch(m, { messenger_chat_id: '-100777', messenger_bot_token: BOT_TOKEN })).status).toBe(
      200,
    );
    const res = await server.api('POST', '/users/me/messenger-test', { token: m.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      eventType: 'ping',
      chatId: '-100777',
      status: 'SENT',
      responseStatus: 200,
      error: null,
      attempt: 1,
    });
    // Timed like the webhook test's answer (issue 28, defect 9b: it had no durationMs).
    expect(res.body.durationMs).toBeGreaterThanOrEqual(0);
    expect(res.text).not.toContain(BOT_TOKEN);
    const sent = telegram.sent.filter((s) => s.chatId === '-100777');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toBe(res.body.text);
    expect(sent[0]!.text).toMatch(/^🔔 Test message from stablepay\n/);

    const [stored] = await storedEvents(m.id);
    expect(stored).toMatchObject({ type: 'ping', order_id: null });
    expect(JSON.parse(stored!.body)).toMatchObject({ type: 'ping', apiVersion: LATEST_API_VERSION });
    const [record] = await server.deps.db.sequelize.query<{ order_id: string | null; status: string }>(
      `SELECT m.order_id, m.status FROM messenger_deliveries m JOIN event_deliveries d ON d.id = m.delivery_id
        JOIN events e ON e.id = d.event_id WHERE e.merchant_id = :merchantId`,
      { replacements: { merchantId: m.id }, type: QueryTypes.SELECT },
    );
    expect(record).toEqual({ order_id: null, status: 'SENT' });
  });

  it('reports a refusal by the Bot API, and 409 without a chat or a bot token', async () => {
    const m = await newMerchant(server);
    expectConflict(
      await server.api('POST', '/users/me/messenger-test', { token: m.token }),
      'messenger_chat_id',
    );
    await patch(m, { messenger_chat_id: '-100888' });
    expectConflict(
      await server.api('POST', '/users/me/messenger-test', { token: m.token }),
      'messenger_bot_token',
    );
    await patch(m, { messenger_bot_token: '123456789:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    const refused = await server.api('POST', '/users/me/messenger-test', { token: m.token });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ status: 'FAILED', responseStatus: 401, error: 'HTTP 401' });

    // A merchant at 2025-01-01 is sent no ping, on any channel.
    await patch(m, { messenger_bot_token: BOT_TOKEN, webhook_api_version: '2025-01-01' });
    expectConflict(
      await server.api('POST', '/users/me/messenger-test', { token: m.token }),
      'webhook_api_version',
      '2026-11-24',
    );
    expect(telegram.sent.filter((s) => s.chatId === '-100888')).toEqual([]);
  });

  it('both need a merchant (401 without a token)', async () => {
    for (const path of ['/users/me/webhook-test', '/users/me/messenger-test'])
      expectErrorBody(await server.api('POST', path), 401, 'UNAUTHENTICATED');
  });
});

describe('migration 0014', () => {
  it('pins merchants that already have a webhook secret to 2025-01-01, and no others', async () => {
    const sequelize = new Sequelize(await createTestDatabase(), { logging: false });
    try {
      await migrate(sequelize);
      const context = { query: (sql: string) => sequelize.query(sql), notice: () => {} };
      await apiVersionsMigration.down({ context, name: '0014-api-versions' });
      await sequelize.query(`INSERT INTO merchants (email, webhook_secret_sealed) VALUES
        ('with-secret@example.com', 'sealed'), ('without@example.com', NULL)`);
      // An event as bodies were written before versions (its order is beside the point here).
      const before =
        '{"id":"evt_old","type":"order.paid","createdAt":"2026-01-01T00:00:00.000Z","data":{"x":1}}';
      await sequelize.query(`ALTER TABLE events ALTER COLUMN order_id DROP NOT NULL;
        INSERT INTO events (id, merchant_id, type, body)
        SELECT 'evt_old', id, 'order.paid', '${before}' FROM merchants WHERE email = 'with-secret@example.com'`);
      await apiVersionsMigration.up({ context, name: '0014-api-versions' });
      const [event] = await sequelize.query<{ body: string }>(
        `SELECT body FROM events WHERE id = 'evt_old'`,
        {
          type: QueryTypes.SELECT,
        },
      );
      expect(event!.body).toBe(
        '{"id":"evt_old","type":"order.paid","apiVersion":"2025-01-01","createdAt":"2026-01-01T00:00:00.000Z","data":{"x":1}}',
      );
      const rows = await sequelize.query<{ email: string; webhook_api_version: string | null }>(
        'SELECT email, webhook_api_version FROM merchants ORDER BY email',
        { type: QueryTypes.SELECT },
      );
      expect(rows).toEqual([
        { email: 'with-secret@example.com', webhook_api_version: '2025-01-01' },
        { email: 'without@example.com', webhook_api_version: null },
      ]);
    } finally {
      await sequelize.close();
    }
  });
});
