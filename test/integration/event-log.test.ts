import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { pruneEvents } from '../../server/event-log/prune-events';
import { encodeBase58 } from '../../server/lib/base58';
import { expectErrorBody, newMerchant, startTestServer, newApiKey } from '../support/test-server';
import type { ApiResponse, TestServer } from '../support/test-server';
import { useDeliveryStack, type DeliveryStack } from '../support/delivery-stack';
import type { ReceivedWebhook } from '../support/webhook-receiver';
import { until } from '../support/until';

type EventBody = { id: string; type: string; createdAt: string; data: { order: { reference: string } } };
type EventPage = { items: EventBody[]; per_page: number; nextCursor: string | null };

let server: TestServer;
let receiver: DeliveryStack['receiver'];
/** Receiver paths that answer 503, as a receiver that is down would. */
const down = new Set<string>();

useDeliveryStack(
  {
    // Deliveries only: the retention job is run by the tests themselves, and no claim is verified
    // (an order reported paid stays CONFIRMING).
    JOBS: 'deliver-events',
    WEBHOOK_MAX_ATTEMPTS: '3',
  },
  (stack) => {
    ({ server, receiver } = stack);
    receiver.setResponder((hook) => (down.has(hook.url) ? { status: 503 } : { status: 200, body: 'ok' }));
  },
);

/** A merchant whose webhooks go to a path of its own on the shared receiver. */
async function merchantWithWebhooks() {
  const m = await newMerchant(server, { wallets: ['SOLANA'] });
  const path = `/m/${m.id}`;
  expect((await server.api('POST', '/users/me/webhook-secret', { token: m.token })).status).toBe(200);
  const url = receiver.url.replace('/hooks', path);
  expect(
    (await server.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: url } })).status,
  ).toBe(200);
  /** What the receiver got for this merchant: the first attempt of each event, by event id. */
  const received = () => {
    const byId = new Map<string, ReceivedWebhook>();
    for (const hook of receiver.received)
      if (hook.url === path && !byId.has(hook.json.id)) byId.set(hook.json.id, hook);
    return byId;
  };
  return { ...m, path, received };
}

async function createOrder(token: string) {
  const res = await server.api('POST', '/orders', {
    token,
    body: { network: 'SOLANA', token: 'USDT', amount: '12.5' },
  });
  expect(res.status, res.text).toBe(201);
  // Distinct creation times, so "newest first" is the order of creation.
  await new Promise((r) => setTimeout(r, 3));
  return res.body as { reference: string };
}

const list = (token: string, query: Record<string, string> = {}) =>
  server.api<EventPage>('GET', `/events?${new URLSearchParams(query)}`, { token });

const ids = (res: ApiResponse<EventPage>) => {
  expect(res.status, res.text).toBe(200);
  return res.body.items.map((e) => e.id);
};

/** The ids of every page, following nextCursor to the end (the same filters on each request). */
async function walk(token: string, query: Record<string, string>) {
  const pages: string[][] = [];
  let cursor = '';
  for (;;) {
    const res = await list(token, { ...query, ...(cursor ? { cursor } : {}) });
    pages.push(ids(res));
    if (res.body.nextCursor === null) return pages;
    cursor = res.body.nextCursor;
  }
}

/** The events of an order, oldest first, straight from the table. */
const eventsOf = (reference: string) =>
  server.deps.db.sequelize.query<{ id: string; type: string }>(
    `SELECT e.id, e.type FROM events e JOIN orders o ON o.id = e.order_id
      WHERE o.reference = :reference ORDER BY e.created_at, e.id`,
    { type: QueryTypes.SELECT, replacements: { reference } },
  );

describe('GET /events', () => {
  it('lists every event newest first, each exactly the body its webhook receiver got', async () => {
    const m = await merchantWithWebhooks();
    const orders = [await createOrder(m.token), await createOrder(m.token), await createOrder(m.token)];
    const received = await until('the expected state', () => m.received().size === 3 && m.received());

    const res = await list(m.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.per_page).toBe(20);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items.map((e) => e.data.order.reference)).toEqual(
      orders.map((o) => o.reference).reverse(),
    );
    for (const event of res.body.items) {
      expect(event).toEqual(JSON.parse(received.get(event.id)!.body));
      expect((await server.api('GET', `/events/${event.id}`, { token: m.token })).body).toEqual(event);
    }
  });

  it('lists test pings too, about no order', async () => {
    const m = await merchantWithWebhooks();
    const test = await server.api('POST', '/users/me/webhook-test', { token: m.token });
    expect(test.status, test.text).toBe(200);
    const [hook] = (
      await until('the expected state', () => m.received().size === 1 && m.received())
    ).values();
    const res = await list(m.token);
    expect(ids(res)).toEqual([hook!.json.id]);
    expect(res.body.items[0]).toEqual(JSON.parse(hook!.body));
    expect(res.body.items[0]!.type).toBe('ping');
    expect(ids(await list(m.token, { type: 'ping' }))).toEqual([hook!.json.id]);
    expect(ids(await list(m.token, { type: 'order.created' }))).toEqual([]);
  });

  it('serves the stored bytes: with response validation off, the same text the webhook carried', async () => {
    const m = await merchantWithWebhooks();
    await createOrder(m.token);
    await createOrder(m.token);
    const received = await until('the expected state', () => m.received().size === 2 && m.received());
    const newestFirst = ids(await list(m.token));
    const plain = await startTestServer({ JOBS: 'none', RESPONSE_VALIDATION: 'false' });
    try {
      for (const hook of received.values()) {
        const one = await plain.api('GET', `/events/${hook.json.id}`, { token: m.token });
        expect(one.text).toBe(hook.body);
      }
      const page = await plain.api('GET', '/events', { token: m.token });
      expect(page.text).toBe(
        `{"items":[${newestFirst.map((id) => received.get(id)!.body).join(',')}],"per_page":20,"nextCursor":null}`,
      );
    } finally {
      await plain.stop();
    }
  });

  it('filters by type, order and creation time, and pages with a cursor to the end', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const [o1, o2, o3] = [await createOrder(m.token), await createOrder(m.token), await createOrder(m.token)];
    const txId = encodeBase58(randomBytes(64));
    expect(
      (await server.api('POST', `/orders/${o2!.reference}/submit-tx`, { token: m.token, body: { txId } }))
        .status,
    ).toBe(202);
    const [e1] = await eventsOf(o1!.reference);
    const [e2, e4] = await eventsOf(o2!.reference);
    const [e3] = await eventsOf(o3!.reference);
    expect([e1!.type, e2!.type, e3!.type, e4!.type]).toEqual([
      'order.created',
      'order.created',
      'order.created',
      'order.confirming',
    ]);
    const all = [e4!.id, e3!.id, e2!.id, e1!.id];

    expect(ids(await list(m.token))).toEqual(all);
    expect(ids(await list(m.token, { type: 'order.confirming' }))).toEqual([e4!.id]);
    expect(ids(await list(m.token, { type: 'order.created' }))).toEqual([e3!.id, e2!.id, e1!.id]);
    expect(ids(await list(m.token, { type: 'order.paid' }))).toEqual([]);
    expect(ids(await list(m.token, { order: o2!.reference }))).toEqual([e4!.id, e2!.id]);
    expect(ids(await list(m.token, { order: o1!.reference, type: 'order.created' }))).toEqual([e1!.id]);
    expect(ids(await list(m.token, { order: encodeBase58(randomBytes(32)) }))).toEqual([]);

    const createdAt = async (id: string) =>
      ((await server.api('GET', `/events/${id}`, { token: m.token })).body as EventBody).createdAt;
    const range = { created_gte: await createdAt(e2!.id), created_lt: await createdAt(e4!.id) };
    expect(ids(await list(m.token, range))).toEqual([e3!.id, e2!.id]);
    expect(ids(await list(m.token, { created_gte: range.created_lt }))).toEqual([e4!.id]);
    // Any offset is accepted and means the same instant.
    const plusTwo = new Date(new Date(range.created_gte).getTime() + 2 * 3600_000)
      .toISOString()
      .replace('Z', '+02:00');
    expect(ids(await list(m.token, { created_lt: plusTwo }))).toEqual([e1!.id]);

    expect(await walk(m.token, { per_page: '3' })).toEqual([all.slice(0, 3), all.slice(3)]);
    expect(await walk(m.token, { per_page: '1' })).toEqual(all.map((id) => [id]));
    expect(await walk(m.token, { per_page: '2', type: 'order.created' })).toEqual([
      [e3!.id, e2!.id],
      [e1!.id],
    ]);
    expect(await walk(m.token, { per_page: '4' })).toEqual([all]);
    // An empty cursor is the first page.
    expect(ids(await list(m.token, { cursor: '', per_page: '2' }))).toEqual(all.slice(0, 2));
  });

  it("never shows another merchant's events", async () => {
    const a = await newMerchant(server, { wallets: ['SOLANA'] });
    const b = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await createOrder(a.token);
    const [event] = await eventsOf(order.reference);
    expect(ids(await list(b.token))).toEqual([]);
    expect(ids(await list(b.token, { order: order.reference }))).toEqual([]);
    expectErrorBody(await server.api('GET', `/events/${event!.id}`, { token: b.token }), 404, 'NOT_FOUND');
    expectErrorBody(await list(b.token, { ending_before: event!.id }), 400, 'VALIDATION_ERROR');
    expect((await server.api('GET', `/events/${event!.id}`, { token: a.token })).status).toBe(200);
  });

  it('lets a receiver that was down list what came after the last event it processed', async () => {
    const m = await merchantWithWebhooks();
    await createOrder(m.token);
    const processed = [
      ...(await until('the expected state', () => m.received().size === 1 && m.received())).keys(),
    ][0]!;

    down.add(m.path);
    try {
      const missed = [await createOrder(m.token), await createOrder(m.token), await createOrder(m.token)];
      // The receiver got (and refused) each of them.
      const received = await until('the expected state', () => m.received().size === 4 && m.received());
      const [b, c, d] = await Promise.all(missed.map(async (o) => (await eventsOf(o.reference))[0]!.id));

      // The two events right after the last one processed, newest first; then the newer ones.
      const first = await list(m.token, { ending_before: processed, per_page: '2' });
      expect(ids(first)).toEqual([c, b]);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await list(m.token, { cursor: first.body.nextCursor!, per_page: '2' });
      expect(ids(second)).toEqual([d]);
      expect(second.body.nextCursor).toBeNull();
      for (const event of [...first.body.items, ...second.body.items])
        expect(event).toEqual(JSON.parse(received.get(event.id)!.body));

      expect(ids(await list(m.token, { ending_before: processed }))).toEqual([d, c, b]);
      const caughtUp = await list(m.token, { ending_before: d! });
      expect(ids(caughtUp)).toEqual([]);
      expect(caughtUp.body.nextCursor).toBeNull();
      // Filters hold on the way up too.
      expect(ids(await list(m.token, { ending_before: processed, order: missed[1]!.reference }))).toEqual([
        c,
      ]);
    } finally {
      down.delete(m.path);
    }
  });

  it('answers 400 VALIDATION_ERROR for bad queries, 404 for an unknown event, 401 without a token', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await createOrder(m.token);
    await createOrder(m.token);
    const [event] = await eventsOf(order.reference);
    const first = await list(m.token, { per_page: '1' });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

    const bad: [Record<string, string>, string][] = [
      [{ cursor: 'not-a-cursor' }, 'query.cursor'],
      [
        { cursor: forged({ v: 1, d: 'o', at: '2026-02-30T10:00:00.000000Z', id: event!.id }) },
        'query.cursor',
      ],
      [
        { cursor: forged({ v: 1, d: 'x', at: '2026-01-30T10:00:00.000000Z', id: event!.id }) },
        'query.cursor',
      ],
      [
        { cursor: forged({ v: 1, d: 'o', at: '2026-01-30T10:00:00.000000Z', id: "evt_' OR 1=1" }) },
        'query.cursor',
      ],
      [{ per_page: '51' }, 'query.per_page'],
      [{ per_page: '0' }, 'query.per_page'],
      [{ per_page: 'many' }, 'query.per_page'],
      [{ type: 'order.shipped' }, 'query.type'],
      [{ order: 'not a reference' }, 'query.order'],
      [{ created_gte: '2026-02-30T00:00:00Z' }, 'query.created_gte'],
      [{ created_lt: 'yesterday' }, 'query.created_lt'],
      [{ created_lt: '2026-01-01T00:00:00' }, 'query.created_lt'],
      [{ ending_before: 'evt_unknown' }, 'query.ending_before'],
      [{ ending_before: 'order.created' }, 'query.ending_before'],
      [{ ending_before: event!.id, cursor: first.body.nextCursor! }, 'query.ending_before'],
    ];
    for (const [query, path] of bad) {
      const res = await list(m.token, query);
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
      expect(
        (res.body as unknown as { error: { details: { path: string }[] } }).error.details.map((d) => d.path),
        JSON.stringify(query),
      ).toContain(path);
    }
    expectErrorBody(
      await server.api('GET', `/events/evt_${randomBytes(16).toString('hex')}`, { token: m.token }),
      404,
      'NOT_FOUND',
    );
    expectErrorBody(await server.api('GET', '/events/nope', { token: m.token }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await server.api('GET', '/events'), 401, 'UNAUTHENTICATED');
    expectErrorBody(await server.api('GET', `/events/${event!.id}`), 401, 'UNAUTHENTICATED');
  });
});

describe('an API key is shown the events of its scopes', () => {
  type Delivery = { id: string; eventId: string; eventType: string; requestBody: string };
  const isSubscriptionEvent = (type: string) => type.startsWith('subscription.');

  it("keeps subscription events, their deliveries and the customer's manageUrl from a key without subscriptions:read", async () => {
    const m = await merchantWithWebhooks();
    const key = (scopes: string[]) => newApiKey(server.api, m.token, scopes);
    const orders = await key(['orders:read']);
    const ordersWriter = await key(['orders:read', 'orders:write']);
    const both = await key(['orders:read', 'subscriptions:read']);

    const plain = await createOrder(m.token);
    const made = await server.api<{ id: string; manageUrl: string; latestOrderReference: string }>(
      'POST',
      '/subscriptions',
      {
        token: m.token,
        body: {
          network: 'SOLANA',
          token: 'USDT',
          amount: '3.5',
          interval: 'month',
          customer: { email: 'ana@example.com' },
        },
      },
    );
    expect(made.status, made.text).toBe(201);
    const secret = made.body.manageUrl.split('/').at(-1)!;
    const subOrder = made.body.latestOrderReference;
    expect(subOrder).toEqual(expect.any(String));

    // Every event, as the login token (the dashboard) lists it, delivered.
    const all = await list(m.token, { per_page: '50' });
    expect(all.status, all.text).toBe(200);
    const types = all.body.items.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['order.created', 'subscription.created', 'subscription.order_created']),
    );
    expect(all.text).toContain(secret);
    const subEvent = all.body.items.find((e) => e.type === 'subscription.order_created')!;
    await until('every event delivered', () => m.received().size === all.body.items.length);
    const recent = (token: string) =>
      server.api<{ items: Delivery[] }>('GET', '/users/me/webhook-deliveries', { token });
    const ofOrder = (token: string, reference: string) =>
      server.api<{ items: Delivery[] }>('GET', `/orders/${reference}/webhook-deliveries`, { token });
    await until(
      'every attempt recorded',
      async () => (await recent(m.token)).body.items.length === all.body.items.length,
    );
    const subDelivery = (await ofOrder(m.token, subOrder)).body.items.find(
      (d) => d.eventType === 'subscription.order_created',
    )!;
    expect(subDelivery.requestBody).toContain(secret);

    const visible = all.body.items.filter((e) => !isSubscriptionEvent(e.type)).map((e) => e.id);
    expect(visible.length).toBeGreaterThanOrEqual(2);
    expect(visible.length).toBeLessThan(all.body.items.length);

    // orders:read alone: no subscription event, no manageUrl, and pages that stay whole.
    const listed = await list(orders, { per_page: '50' });
    expect(ids(listed)).toEqual(visible);
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain('manageUrl');
    expect(await walk(orders, { per_page: '1' })).toEqual(visible.map((id) => [id]));
    const subOrderEvents = await list(orders, { order: subOrder });
    expect(ids(subOrderEvents).length).toBeGreaterThan(0);
    expect(subOrderEvents.body.items.every((e) => !isSubscriptionEvent(e.type))).toBe(true);
    expect(subOrderEvents.text).not.toContain(secret);
    expectErrorBody(await list(orders, { type: 'subscription.created' }), 403, 'FORBIDDEN');
    expectErrorBody(await server.api('GET', `/events/${subEvent.id}`, { token: orders }), 403, 'FORBIDDEN');
    for (const id of visible) {
      const one = await server.api('GET', `/events/${id}`, { token: orders });
      expect(one.status, one.text).toBe(200);
      expect(one.text).not.toContain(secret);
    }
    // A subscription event the receiver processed is still a place to catch up from.
    expect((await list(orders, { ending_before: subEvent.id })).status).toBe(200);

    for (const res of [
      await recent(orders),
      await ofOrder(orders, subOrder),
      await ofOrder(orders, plain.reference),
    ]) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.items.length).toBeGreaterThan(0);
      expect(res.body.items.filter((d) => isSubscriptionEvent(d.eventType))).toEqual([]);
      expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain('manageUrl');
    }
    // Nor does a redelivery answer with a subscription event's body.
    expectErrorBody(
      await server.api('POST', `/orders/${subOrder}/webhook-deliveries/${subDelivery.id}/redeliver`, {
        token: ordersWriter,
      }),
      403,
      'FORBIDDEN',
    );

    // With subscriptions:read as well, and with the login token: every event.
    for (const token of [both, m.token]) {
      const res = await list(token, { per_page: '50' });
      expect(ids(res)).toEqual(all.body.items.map((e) => e.id));
      expect(res.text).toContain(secret);
      expect(ids(await list(token, { type: 'subscription.order_created' }))).toEqual([subEvent.id]);
      const one = await server.api('GET', `/events/${subEvent.id}`, { token });
      expect(one.status, one.text).toBe(200);
      expect(one.body).toEqual(subEvent);
      expect((await recent(token)).body.items.map((d) => d.eventType)).toContain(
        'subscription.order_created',
      );
      expect((await ofOrder(token, subOrder)).body.items.map((d) => d.eventId)).toContain(subEvent.id);
    }
  });
});

describe('retention', () => {
  const sql = (query: string, replacements: Record<string, unknown> = {}) =>
    server.deps.db.sequelize.query(query, { replacements });
  const age = (eventId: string, days: number) =>
    sql(`UPDATE events SET created_at = now() - make_interval(days => :days) WHERE id = :eventId`, {
      days,
      eventId,
    });
  const count = async (query: string, replacements: Record<string, unknown>) =>
    Number(
      (
        await server.deps.db.sequelize.query<{ n: string }>(query, {
          type: QueryTypes.SELECT,
          replacements,
        })
      )[0]!.n,
    );

  it('deletes events older than EVENT_RETENTION_DAYS with their deliveries, in bounded batches, and keeps newer ones', async () => {
    expect(server.config.EVENT_RETENTION_DAYS).toBe(30);
    const m = await merchantWithWebhooks();
    const orders = [
      await createOrder(m.token),
      await createOrder(m.token),
      await createOrder(m.token),
      await createOrder(m.token),
    ];
    await until('the expected state', () => m.received().size === 4);
    // Each event's delivery recorded.
    await until(
      'the expected state',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM webhook_deliveries w JOIN orders o ON o.id = w.order_id
            WHERE o.merchant_id = :merchantId`,
          { merchantId: m.id },
        )) === 4,
    );
    const [old, older, leased, recent] = await Promise.all(
      orders.map(async (o) => (await eventsOf(o.reference))[0]!.id),
    );
    await age(older!, 40);
    await age(leased!, 35);
    await age(old!, 31);
    await age(recent!, 29);
    // A messenger send recorded for the oldest event, and a send of the third in flight right now.
    await sql(
      `INSERT INTO messenger_deliveries (order_id, event_type, chat_id, text, status, attempt, delivery_id)
       SELECT e.order_id, e.type, '-100', 'sent', 'SENT', 1, d.id
         FROM events e JOIN event_deliveries d ON d.event_id = e.id WHERE e.id = :eventId`,
      { eventId: older },
    );
    await sql(
      `UPDATE event_deliveries SET locked_until = now() + interval '1 hour' WHERE event_id = :eventId`,
      {
        eventId: leased,
      },
    );

    // Oldest first, at most a batch per run; the event being sent waits.
    expect(await pruneEvents(server.deps, { batchSize: 1 })).toBe(1);
    expectErrorBody(await server.api('GET', `/events/${older}`, { token: m.token }), 404, 'NOT_FOUND');
    expect((await server.api('GET', `/events/${old}`, { token: m.token })).status).toBe(200);
    expect(await pruneEvents(server.deps, { batchSize: 1 })).toBe(1);
    expect(await pruneEvents(server.deps, { batchSize: 1 })).toBe(0);
    expect(ids(await list(m.token))).toEqual([recent, leased]);

    await sql(`UPDATE event_deliveries SET locked_until = NULL WHERE event_id = :eventId`, {
      eventId: leased,
    });
    expect(await server.jobs.runNow('prune-events')).toBe(1);
    expect(await server.jobs.runNow('prune-events')).toBe(0);

    expect(ids(await list(m.token))).toEqual([recent]);
    const gone = { ids: [older, leased, old] };
    expect(await count('SELECT count(*) AS n FROM events WHERE id IN (:ids)', gone)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM event_deliveries WHERE event_id IN (:ids)', gone)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM webhook_deliveries WHERE event_id IN (:ids)', gone)).toBe(
      0,
    );
    expect(
      await count(
        `SELECT count(*) AS n FROM messenger_deliveries m JOIN orders o ON o.id = m.order_id
          WHERE o.merchant_id = :merchantId`,
        { merchantId: m.id },
      ),
    ).toBe(0);
    // The order keeps its timeline; its delivery history loses the attempts of the deleted event.
    const [, , , kept] = orders;
    const history = await server.api('GET', `/orders/${orders[0]!.reference}/webhook-deliveries`, {
      token: m.token,
    });
    expect(history.body.items).toEqual([]);
    const audit = await server.api('GET', `/orders/${orders[0]!.reference}/audit`, { token: m.token });
    expect(audit.body.items.map((e: { type: string }) => e.type)).toEqual([
      'order.created',
      'webhook.delivered',
    ]);
    const keptHistory = await server.api('GET', `/orders/${kept!.reference}/webhook-deliveries`, {
      token: m.token,
    });
    expect(keptHistory.body.items.map((d: { eventId: string }) => d.eventId)).toEqual([recent]);
  });

  it('refuses EVENT_RETENTION_DAYS below 30 at start-up', async () => {
    expect(() => loadConfig({ EVENT_RETENTION_DAYS: '7' })).toThrow(/EVENT_RETENTION_DAYS/);
    expect(loadConfig({ EVENT_RETENTION_DAYS: '90' }).EVENT_RETENTION_DAYS).toBe(90);
  });
});
