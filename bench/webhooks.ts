import { setTimeout as sleep } from 'node:timers/promises';
import http from 'node:http';
import type net from 'node:net';
import type { z } from 'zod';
import type { ZLoginResponse } from '../contract';
import { deliverEventsJob } from '../server/events/deliver-events.job';
import { startJobs } from '../server/jobs/scheduler';
import { createMerchant } from '../test/support/harness';
import { addWallet, createOrders, sqlCount } from './fixtures';
import { progress } from './lib/progress';
import { now, type Report } from './measure';
import type { Ctx } from './stack';

/** A backlog of order.created webhooks to one fast receiver. */
const BACKLOG = 2000;
/** With a slow receiver: this many for the fast merchant, queued behind the slow merchant's. */
const WITH_SLOW_FAST = 1000;
const WITH_SLOW_SLOW = 100;
/** The slow receiver answers this late: as late as the default WEBHOOK_TIMEOUT_MS allows. */
const SLOW_ANSWER_MS = 10_000;

/**
 * Webhook throughput as the service runs it: the deliver-events job on its schedule (every 2 s)
 * and on wake-ups, started once the backlog is queued, timed until the last webhook arrived.
 * Then the same with a second merchant whose receiver answers after 10 s, its webhooks queued first.
 */
export async function benchWebhooks(ctx: Ctx, report: Report): Promise<void> {
  progress(`webhook delivery: a backlog of ${BACKLOG}`);
  const fast = await startReceiver(0);
  ctx.addCleanup('webhook receiver', fast.close);
  await ctx.api.json('PATCH', '/users/me', { token: ctx.token, body: { webhook_url: fast.url } });
  await ctx.api.json('POST', '/users/me/webhook-secret', { token: ctx.token });

  await createOrders(ctx, BACKLOG); // one order.created event, and one webhook task, each
  await expectPending(ctx, BACKLOG);
  const alone = await drain(ctx, () => fast.received() >= BACKLOG);
  if (fast.received() !== BACKLOG) throw new Error(`the receiver got ${fast.received()}, not ${BACKLOG}`);
  report.rows.push({
    name: `webhooks: a backlog of ${BACKLOG} to one receiver`,
    count: BACKLOG,
    totalMs: alone,
  });
  report.notes.push(
    `webhooks: ${BACKLOG} delivered in ${(alone / 1000).toFixed(1)} s, ${Math.round((BACKLOG / alone) * 1000)} a second (the job on its schedule and wake-ups)`,
  );

  progress(
    `webhook delivery: ${WITH_SLOW_FAST} behind ${WITH_SLOW_SLOW} of a receiver answering after ${SLOW_ANSWER_MS / 1000} s`,
  );
  const slow = await startReceiver(SLOW_ANSWER_MS);
  ctx.addCleanup('slow webhook receiver', slow.close);
  const other = await otherMerchant(ctx, slow.url);
  await createOrders(other, WITH_SLOW_SLOW);
  const fastBefore = fast.received();
  await createOrders(ctx, WITH_SLOW_FAST);
  await expectPending(ctx, WITH_SLOW_FAST + WITH_SLOW_SLOW);
  const withSlow = await drain(ctx, () => fast.received() - fastBefore >= WITH_SLOW_FAST);
  report.rows.push({
    name: `webhooks: ${WITH_SLOW_FAST} while another merchant's receiver answers after 10 s`,
    count: WITH_SLOW_FAST,
    totalMs: withSlow,
  });
  report.notes.push(
    `webhooks with a slow receiver: ${WITH_SLOW_FAST} of the fast merchant in ${(withSlow / 1000).toFixed(1)} s, ${Math.round((WITH_SLOW_FAST / withSlow) * 1000)} a second, while the slow one (${WITH_SLOW_SLOW} queued first) got ${slow.received()} requests`,
  );
  // The slow merchant's webhooks would be retried for a day: given up here, out of later parts' way.
  await ctx.server.deps.db.sequelize.query(
    `UPDATE event_deliveries SET status = 'FAILED' WHERE status = 'PENDING'`,
  );
}

/** Runs the deliver-events job as an instance does (schedule and wake-ups) until `done`; the ms it took. */
async function drain(ctx: Ctx, done: () => boolean): Promise<number> {
  const deps = ctx.server.deps;
  const started = now();
  const jobs = startJobs({ ...deps, config: { ...deps.config, jobs: new Set(['deliver-events']) } }, [
    deliverEventsJob,
  ]);
  void jobs.runNow('deliver-events'); // as the wake-up of the last order would
  try {
    const deadline = Date.now() + 10 * 60_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('webhooks: not delivered in 10 minutes');
      await sleep(5);
    }
    return now() - started;
  } finally {
    await jobs.stop();
  }
}

async function expectPending(ctx: Ctx, n: number) {
  const pending = await sqlCount(
    ctx,
    `SELECT count(*)::int AS n FROM event_deliveries WHERE status = 'PENDING'`,
  );
  if (pending !== n) throw new Error(`${pending} webhook tasks are due, not ${n}`);
}

/** A second merchant, logged in, with a wallet and its webhooks going to `url`. */
async function otherMerchant(ctx: Ctx, url: string): Promise<Ctx> {
  const email = 'bench-slow@stablepay.local';
  const password = 'bench-password-123';
  const merchant = await createMerchant(ctx.server.deps.db.models, { email, password, name: 'Slow Shop' });
  const { token } = await ctx.api.json<z.infer<typeof ZLoginResponse>>('POST', '/auth/login', {
    body: { email, password },
  });
  const other: Ctx = { ...ctx, merchantId: merchant.id, token };
  other.wallet = await addWallet(other, 'slow shop');
  await ctx.api.json('PATCH', '/users/me', { token, body: { webhook_url: url } });
  await ctx.api.json('POST', '/users/me/webhook-secret', { token });
  return other;
}

/** A webhook receiver on 127.0.0.1 that answers 200 to everything after `delayMs`, and counts. */
async function startReceiver(delayMs: number) {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      const answer = () => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      };
      if (delayMs > 0) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/webhooks`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
