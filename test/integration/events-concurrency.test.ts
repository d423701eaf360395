import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { useDeliveryStack, type DeliveryStack } from '../support/delivery-stack';
import { newMerchant, type TestServer } from '../support/test-server';

/** Sends in flight per merchant; the run's pool (JOB_BATCH_SIZE) is a few times that. */
const PER_DESTINATION = 3;
const BATCH = 10;

let server: TestServer;
let receiver: DeliveryStack['receiver'];

useDeliveryStack(
  {
    // No schedule and no wake-ups (JOBS=none): each test runs the sender itself, one run at a time.
    JOBS: 'none',
    JOB_BATCH_SIZE: String(BATCH),
    WEBHOOK_CONCURRENCY_PER_DESTINATION: String(PER_DESTINATION),
    // Longer than any wait here: a send ends when its receiver answers, never by running out of time.
    WEBHOOK_TIMEOUT_MS: '60000',
  },
  (stack) => ({ server, receiver } = stack),
);

/** A merchant whose webhooks go to its own path of the shared receiver. */
async function merchantWithWebhooks() {
  const m = await newMerchant(server, { wallets: ['SOLANA'] });
  const path = `/m/${m.id}`;
  await server.api('POST', '/users/me/webhook-secret', { token: m.token });
  const res = await server.api('PATCH', '/users/me', {
    token: m.token,
    body: { webhook_url: receiver.url.replace('/hooks', path) },
  });
  expect(res.status).toBe(200);
  const mine = () => receiver.received.filter((r) => r.url === path);
  return { ...m, path, mine };
}

async function createOrders(token: string, n: number): Promise<{ id: string; reference: string }[]> {
  const orders = [];
  for (let i = 0; i < n; i++) {
    const res = await server.api('POST', '/orders', {
      token,
      body: { network: 'SOLANA', token: 'USDT', amount: `${10 + i}.25` },
    });
    expect(res.status, res.text).toBe(201);
    orders.push(res.body);
  }
  return orders;
}

const sql = <T extends object>(query: string, replacements: Record<string, unknown> = {}) =>
  server.deps.db.sequelize.query<T>(query, { type: QueryTypes.SELECT, replacements });

const pendingOf = async (merchantId: string) =>
  (
    await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_deliveries d JOIN events e ON e.id = d.event_id
        WHERE e.merchant_id = :merchantId AND d.status = 'PENDING'`,
      { merchantId },
    )
  )[0]!.n;

describe('the sender under load', () => {
  it('a backlog larger than one batch drains in one run', async () => {
    const m = await merchantWithWebhooks();
    const n = BATCH * 4 + 3;
    await createOrders(m.token, n);
    expect(await pendingOf(m.id)).toBe(n);

    expect(await server.jobs.runNow('deliver-events')).toBe(n);
    expect(await pendingOf(m.id)).toBe(0);
    expect(new Set(m.mine().map((h) => h.json.id)).size).toBe(n);
    expect(m.mine()).toHaveLength(n);
  });

  it("a slow receiver does not delay another merchant's webhooks, and gets a bounded share", async () => {
    const slow = await merchantWithWebhooks();
    const fast = await merchantWithWebhooks();
    // The slow receiver answers nothing until all of the other merchant's webhooks have arrived.
    // Were they to wait on it anywhere (a pool full of its sends, leases queued behind its tasks, a
    // run waiting for its answers), they would never arrive and the wait below would fail: no
    // timing is measured, and a loaded machine only makes both merchants slower.
    let answerSlow = () => {};
    const slowAnswers = new Promise<void>((resolve) => (answerSlow = resolve));
    receiver.setResponder((hook) => ({
      status: 200,
      body: 'ok',
      until: hook.url === slow.path ? slowAnswers : undefined,
    }));
    // More of the slow merchant's webhooks than the pool holds, and older: at the head of the queue.
    const slowCount = BATCH + 2;
    await createOrders(slow.token, slowCount);
    const n = BATCH * 3;
    await createOrders(fast.token, n);

    const run = server.jobs.runNow('deliver-events');
    try {
      await receiver.waitFor(() => fast.mine().length >= n && slow.mine().length >= PER_DESTINATION, 30_000);
      // Its share and no more: another send would need a lease it gets only once one is answered.
      expect(slow.mine()).toHaveLength(PER_DESTINATION);
      // A second run meanwhile (a wake-up's, another instance's) counts the first one's leases: it
      // finds nothing it may send, and sends the held receiver nothing more.
      const more = receiver
        .waitFor(() => slow.mine().length > PER_DESTINATION, 30_000)
        .then(() => 'more requests to the held receiver')
        .catch(() => null);
      expect(await Promise.race([server.jobs.runNow('deliver-events'), more])).toBe(0);
    } finally {
      answerSlow();
    }

    // Answered now; the slow destination's other sends may fall to later runs (a run starts none
    // for a receiver it found slow once its last stretch begins): each goes exactly once.
    let handled = await run;
    for (let runs = 0; (await pendingOf(slow.id)) > 0 && runs < 10; runs++)
      handled += await server.jobs.runNow('deliver-events');
    expect(handled).toBe(n + slowCount);
    expect(new Set(slow.mine().map((h) => h.json.id)).size).toBe(slowCount);
    expect(slow.mine()).toHaveLength(slowCount);
    expect(fast.mine()).toHaveLength(n);
    expect(await pendingOf(slow.id)).toBe(0);
    expect(await pendingOf(fast.id)).toBe(0);
  }, 60_000);

  it("sends an order's events one at a time, in the order they were written", async () => {
    const m = await merchantWithWebhooks();
    const orders = await createOrders(m.token, 8);
    await server.jobs.runNow('deliver-events'); // the order.created ones
    // Answers of random lateness: sends of one order side by side would overtake each other.
    let open = 0;
    let mostOpen = 0;
    receiver.setResponder(() => {
      const delayMs = 5 + Math.floor(Math.random() * 40);
      mostOpen = Math.max(mostOpen, ++open);
      setTimeout(() => open--, delayMs);
      return { status: 200, body: 'ok', delayMs };
    });
    const PER_ORDER = 6;
    // Several events per order, all due at once, written in sequence (the sender sees a backlog).
    await server.deps.db.sequelize.query(
      `WITH new_events AS (
         INSERT INTO events (id, order_id, merchant_id, type, body, created_at)
         SELECT 'evt_seq_' || o.reference || '_' || s, o.id, o.merchant_id, 'order.created',
                json_build_object('id', 'evt_seq_' || o.reference || '_' || s, 'type', 'order.created',
                                  'data', json_build_object('order', json_build_object('reference', o.reference), 'seq', s))::text,
                now()
           FROM orders o, generate_series(1, :perOrder) s
          WHERE o.merchant_id = :merchantId
          ORDER BY s, o.id
         RETURNING id, created_at)
       INSERT INTO event_deliveries (event_id, channel, target, next_attempt_at, created_at, updated_at)
       SELECT id, 'webhook', 'x', created_at, created_at, created_at FROM new_events ORDER BY id`,
      { replacements: { perOrder: PER_ORDER, merchantId: m.id } },
    );
    const before = m.mine().length;
    expect(await server.jobs.runNow('deliver-events')).toBe(orders.length * PER_ORDER);

    const sent = m.mine().slice(before);
    expect(sent).toHaveLength(orders.length * PER_ORDER);
    for (const order of orders) {
      const mine = sent.filter((h) => h.json.data.order.reference === order.reference);
      const seqs = mine.map((h) => (h.json.data as unknown as { seq: number }).seq);
      expect(seqs, order.reference).toEqual([1, 2, 3, 4, 5, 6]);
    }
    // Sends of different orders did overlap: the order is kept by the sender, not by a pool of one.
    expect(mostOpen).toBeGreaterThan(1);
    expect(mostOpen).toBeLessThanOrEqual(PER_DESTINATION);
  }, 40_000);
});
