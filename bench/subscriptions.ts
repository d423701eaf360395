import { QueryTypes } from 'sequelize';
import { newSecretToken } from '../server/lib/secret-token';
import { billSubscriptionsJob } from '../server/subscriptions/bill-subscriptions.job';
import { progress } from './lib/progress';
import { now, type Report } from './measure';
import { SIZES } from './settings';
import type { Ctx } from './stack';
import { createOrder } from '../server/orders/create-order';

/** The baseline: orders made by the same function, as many side by side as the billing job bills. */
const BASELINE_ORDERS = 2000;
const BILLING_CONCURRENCY = 8;

async function plainOrdersPerSecond(ctx: Ctx): Promise<number> {
  const merchant = await ctx.server.deps.cache.merchants.get(ctx.merchantId);
  if (!merchant) throw new Error('no bench merchant');
  let next = 0;
  const worker = async () => {
    while (next < BASELINE_ORDERS) {
      const i = next++;
      await createOrder(ctx.server.deps, {
        merchant,
        body: { network: 'SOLANA', token: 'USDT', amount: (200 + i / 100).toFixed(2) },
      });
    }
  };
  const started = now();
  await Promise.all(Array.from({ length: BILLING_CONCURRENCY }, worker));
  return BASELINE_ORDERS / ((now() - started) / 1000);
}

/**
 * Issue 30's goal: 10,000 active subscriptions due in the same minute are all invoiced within that
 * minute on one instance. They are inserted straight into the table (each due now, a monthly plan
 * of its own price), beside as many that are not due; then the billing job runs, as the scheduler
 * runs it, until none is due. Also shown: the job's query reads the due ones through its index.
 */
export async function benchSubscriptions(ctx: Ctx, report: Report): Promise<void> {
  const due = SIZES.subscriptionsDue;
  progress(`bill-subscriptions: ${due.toLocaleString('en')} subscriptions due at once, as many not due`);
  const db = ctx.server.deps.db.sequelize;
  // One sealed page secret for all (each row still has its own hash: the column is unique).
  const sealed = ctx.server.deps.secrets.seal(newSecretToken());
  const insert = (count: number, dueIn: string) =>
    db.query(
      `INSERT INTO subscriptions (id, merchant_id, status, interval, interval_count, amount, network, token,
                                  token_decimals, due_days, anchor_at, next_run_at, manage_token,
                                  manage_token_hash, created_at, updated_at)
       SELECT 'sub_bench' || md5(random()::text || i), :merchantId, 'ACTIVE', 'month', 1,
              (10 + i / 100.0)::numeric(12, 2)::text, 'SOLANA', 'USDT', 6, 7, now() + CAST(:dueIn AS interval),
              now() + CAST(:dueIn AS interval), :sealed, md5(random()::text || i), now(), now()
         FROM generate_series(1, :count) AS i`,
      { replacements: { merchantId: ctx.merchantId, count, dueIn, sealed } },
    );
  await insert(due, '0 seconds');
  await insert(due, '1 day');
  await db.query('ANALYZE subscriptions');
  const plan = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT ctid FROM subscriptions
      WHERE status IN ('INCOMPLETE', 'TRIALING', 'ACTIVE', 'PAST_DUE') AND next_run_at <= now()
        AND (locked_until IS NULL OR locked_until < now())
      ORDER BY next_run_at LIMIT 200 FOR UPDATE SKIP LOCKED`,
    { type: QueryTypes.SELECT },
  );
  const started = now();
  let billed = 0;
  while (billed < due) {
    const batch = await billSubscriptionsJob.run(ctx.server.deps, { workerId: 'bench' });
    if (batch === 0) break;
    billed += batch;
  }
  const ms = now() - started;
  const baseline = await plainOrdersPerSecond(ctx);
  const [made] = await db.query<{ orders: number }>(
    `SELECT count(*)::int AS orders FROM orders WHERE subscription_id LIKE 'sub_bench%'`,
    { type: QueryTypes.SELECT },
  );
  report.rows.push({
    name: `bill-subscriptions, ${due.toLocaleString('en')} due at once`,
    count: due,
    totalMs: ms,
  });
  report.notes.push(
    `bill-subscriptions: ${due.toLocaleString('en')} subscriptions due in the same minute, ${made?.orders ?? 0} orders made ` +
      `in ${(ms / 1000).toFixed(1)} s on one instance (goal: within 60 s), ${(due / (ms / 1000)).toFixed(0)} a second, ` +
      `${(due / (ms / 1000) / baseline).toFixed(2)} of the rate of plain order creation in the same run ` +
      `(${baseline.toFixed(0)} a second, ${BASELINE_ORDERS.toLocaleString('en')} orders ${BILLING_CONCURRENCY} at a time through createOrder); ` +
      `the due query's plan: ${plan.map((row) => row['QUERY PLAN'].trim()).join(' / ')}`,
  );
}
