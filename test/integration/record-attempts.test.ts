import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttemptRecorder } from '../../server/events/attempt-recorder';
import type { Attempt } from '../../server/events/record-attempts';
import { createMetrics } from '../../server/lib/metrics';
import { newMerchant, startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  // No jobs: the tasks here are recorded by the test alone.
  server = await startTestServer({ JOBS: 'none', WEBHOOK_RETRY_BASE_MS: '60000' });
});
afterAll(async () => {
  await server?.stop();
});

const sql = <T extends object>(query: string, replacements: Record<string, unknown> = {}) =>
  server.deps.db.sequelize.query<T>(query, { type: QueryTypes.SELECT, replacements });

/** A merchant with `n` orders, each with its order.created webhook task, leased to `owner`. */
async function leasedTasks(n: number, owner: string) {
  const m = await newMerchant(server, { wallets: ['SOLANA'] });
  await server.api('PATCH', '/users/me', {
    token: m.token,
    body: { webhook_url: 'https://example.com/hooks' },
  });
  for (let i = 0; i < n; i++) {
    const res = await server.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: `${20 + i}.5` },
    });
    expect(res.status, res.text).toBe(201);
  }
  const tasks = await sql<{ id: string }>(
    `UPDATE event_deliveries d SET locked_by = :owner, locked_until = now() + interval '1 minute'
       FROM events e WHERE e.id = d.event_id AND e.merchant_id = :merchantId
     RETURNING d.id`,
    { owner, merchantId: m.id },
  );
  expect(tasks).toHaveLength(n);
  return tasks.map((t) => String(t.id)).sort((a, b) => Number(a) - Number(b));
}

const answered = (taskId: string, owner: string, status: number, durationMs = 12): Attempt => ({
  taskId,
  owner,
  ok: status === 200,
  status,
  body: status === 200 ? 'ok' : 'boom',
  error: status === 200 ? null : `HTTP ${status}`,
  durationMs,
  target: 'https://example.com/hooks',
  requestBody: '{"id":"evt_x"}',
});

describe('the attempt recorder', () => {
  it('records attempts that finish together in one statement; one the database refuses fails alone', async () => {
    const owner = 'worker-1';
    const [first, second, bad, failed] = await leasedTasks(4, owner);
    const metrics = createMetrics();
    // One write at a time: the first attempt goes alone, the three that arrive meanwhile together.
    const record = createAttemptRecorder({ ...server.deps, metrics });
    const settled = await Promise.allSettled([
      record(answered(first!, owner, 200)),
      record(answered(second!, owner, 200)),
      // An attempt the database refuses: a duration beyond its integer column.
      record(answered(bad!, owner, 200, 2 ** 31)),
      record(answered(failed!, owner, 500)),
    ]);

    // The batch of three failed as a whole and was written again one by one: only the bad one fails.
    const { values } = await metrics.deliveryRecordBatch.get();
    const of = (name: string) => values.find((v) => v.metricName === name)?.value;
    // Two statements left: [first], then [second, bad, failed] (which the batcher then wrote one by one).
    expect([
      of('stablepay_delivery_record_batch_size_count'),
      of('stablepay_delivery_record_batch_size_sum'),
    ]).toEqual([2, 4]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((settled[2] as PromiseRejectedResult).reason)).toMatch(/out of range/);
    for (const s of [settled[0], settled[1], settled[3]])
      expect((s as PromiseFulfilledResult<unknown>).value).toEqual({
        channel: 'webhook',
        recordId: expect.any(String),
      });

    const tasks = await sql<{
      id: string;
      status: string;
      attempts: number;
      locked_by: string | null;
      retry: boolean;
    }>(
      `SELECT id::text, status, attempts, locked_by, next_attempt_at > now() + interval '30 seconds' AS retry
         FROM event_deliveries WHERE id IN (:ids) ORDER BY id`,
      { ids: [first, second, bad, failed] },
    );
    expect(tasks).toEqual([
      { id: first, status: 'DELIVERED', attempts: 1, locked_by: null, retry: false },
      { id: second, status: 'DELIVERED', attempts: 1, locked_by: null, retry: false },
      // Nothing written: still leased, its attempt to be made again once the lease runs out.
      { id: bad, status: 'PENDING', attempts: 0, locked_by: owner, retry: false },
      { id: failed, status: 'PENDING', attempts: 1, locked_by: null, retry: true },
    ]);
    const records = await sql<{ delivery_id: string; response_status: number; error: string | null }>(
      `SELECT delivery_id::text, response_status, error FROM webhook_deliveries WHERE delivery_id IN (:ids)
        ORDER BY delivery_id`,
      { ids: [first, second, bad, failed] },
    );
    expect(records).toEqual([
      { delivery_id: first, response_status: 200, error: null },
      { delivery_id: second, response_status: 200, error: null },
      { delivery_id: failed, response_status: 500, error: 'HTTP 500' },
    ]);
    const audit = await sql<{ type: string; data: Record<string, unknown> }>(
      `SELECT a.type, a.data FROM audit_entries a
         JOIN events e ON e.order_id = a.order_id JOIN event_deliveries d ON d.event_id = e.id
        WHERE d.id IN (:ids) AND a.type LIKE 'webhook.%' ORDER BY d.id`,
      { ids: [first, second, bad, failed] },
    );
    expect(audit.map((a) => a.type)).toEqual(['webhook.delivered', 'webhook.delivered', 'webhook.failed']);
    expect(audit[2]!.data).toMatchObject({ attempt: 1, responseStatus: 500, error: 'HTTP 500' });
    expect(Date.parse(String(audit[2]!.data.nextRetryAt))).toBeGreaterThan(Date.now() + 30_000);
  });
});
