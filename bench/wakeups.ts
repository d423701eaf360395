import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { Order, ZSolanaTransaction } from '../contract';
import { loadConfig, startServer, startWebhookReceiver, type ReceivedWebhook } from '../test/support/harness';
import { createOrders, verifyUntilPaid } from './fixtures';
import { percentile } from './lib/percentile';
import { progress } from './lib/progress';
import { rowFrom, type Report } from './measure';
import { SIZES } from './settings';
import { BENCH_SECRETS, type Ctx } from './stack';

type SolanaTransactionResponse = z.infer<typeof ZSolanaTransaction>;

/**
 * A payment is verified (the order becomes PAID) in the bench's server; a second instance on the
 * same database runs only deliver-events, on its default schedule (every 2 s). The time from the
 * PAID commit to the webhook's arrival shows whether the sender is woken (LISTEN/NOTIFY) or waits
 * for its next run.
 */
export async function benchWakeups(ctx: Ctx, report: Report): Promise<void> {
  progress('payment final -> webhook received (a second instance runs deliver-events only)');
  const receiver = await startWebhookReceiver();
  ctx.addCleanup('wake-up webhook receiver', receiver.stop);
  await ctx.api.json('POST', '/users/me/webhook-secret', { token: ctx.token });
  await ctx.api.json('PATCH', '/users/me', { token: ctx.token, body: { webhook_url: receiver.url } });
  await startDeliveringInstance(ctx);

  const n = SIZES.wakeups;
  const orders = await createOrders(ctx, n);
  for (const order of orders) await payAndReport(ctx, order);
  const references = orders.map((o) => o.reference);
  await verifyUntilPaid(ctx, references, 10);
  const latencies = await paidWebhookLatencies(receiver.received, references);
  report.rows.push(rowFrom('payment final (PAID committed) -> order.paid webhook received', latencies));
  report.notes.push(
    `wake-ups: the deliver-events instance polls every 2 s by schedule; ${n} order.paid webhooks arrived p50 ${percentile(latencies, 50).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms after PAID`,
  );
}

/** A second instance on the bench's database that runs deliver-events only. */
async function startDeliveringInstance(ctx: Ctx): Promise<void> {
  const sender = await startServer(
    loadConfig({
      ...BENCH_SECRETS, // the bench server's: one database, one key
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: ctx.server.deps.db.url,
      JOBS: 'deliver-events',
      SOLANA_RPC_URL: 'http://127.0.0.1:9',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    }),
  );
  ctx.addCleanup('deliver-events instance', () => sender.stop());
  await sleep(500); // its listener connects
}

/** A new payer pays the order on the local chain and reports it (submit-tx). */
async function payAndReport(ctx: Ctx, order: Order): Promise<void> {
  const payer = await ctx.chain.newPayer({ mint: ctx.mint, units: 1_000_000_000n });
  const built = await ctx.api.json<SolanaTransactionResponse>(
    'GET',
    `/pay/tx-request/${order.reference}?account=${payer.publicKey.toBase58()}`,
  );
  const txId = await ctx.chain.signAndSend(built.transaction, payer);
  await ctx.api.json('POST', `/pay/${order.reference}/submit-tx`, { body: { txId }, expect: 202 });
}

/** For each order, ms from its order.paid event's createdAt to the webhook's arrival (15 s at most). */
async function paidWebhookLatencies(received: ReceivedWebhook[], references: string[]): Promise<number[]> {
  const deadline = Date.now() + 15_000;
  const paidHooks = () =>
    received.filter(
      (h) => h.json.type === 'order.paid' && references.includes(String(h.json.data.order.reference)),
    );
  while (paidHooks().length < references.length && Date.now() < deadline) await sleep(20);
  const latencies = paidHooks().map(
    (h) => h.at - Date.parse(String((h.json as { createdAt?: string }).createdAt)),
  );
  if (latencies.length < references.length)
    throw new Error(`${latencies.length} of ${references.length} order.paid webhooks arrived`);
  return latencies;
}
