import http from 'node:http';
import type net from 'node:net';
import { createOrders, runJobUntil, runsFor, sqlCount } from './fixtures';
import { progress } from './lib/progress';
import type { Report } from './measure';
import { SIZES } from './settings';
import type { Ctx } from './stack';

/** deliver-events until SIZES.webhooks webhooks (one order.created each) reached a local receiver. */
export async function benchWebhooks(ctx: Ctx, report: Report): Promise<void> {
  progress('webhook delivery');
  const receiver = await startCountingReceiver();
  ctx.addCleanup('webhook receiver', receiver.close);
  await ctx.api.json('PATCH', '/users/me', { token: ctx.token, body: { webhook_url: receiver.url } });
  await ctx.api.json('POST', '/users/me/webhook-secret', { token: ctx.token });
  const n = SIZES.webhooks;
  await createOrders(ctx, n); // one order.created event, and one webhook task, each

  const pending = await sqlCount(
    ctx,
    `SELECT count(*)::int AS n FROM event_deliveries WHERE status = 'PENDING'`,
  );
  if (pending !== n) throw new Error(`${pending} webhook tasks are due, not ${n}`);
  const delivered = () =>
    sqlCount(ctx, `SELECT count(*)::int AS n FROM event_deliveries WHERE status = 'DELIVERED'`);
  const run = await runJobUntil(ctx, 'deliver-events', async () => (await delivered()) === n, runsFor(n));
  if (receiver.received() !== n)
    throw new Error(`the receiver got ${receiver.received()} webhooks, not ${n}`);
  report.rows.push({ name: `deliver-events until ${n} webhooks delivered`, count: n, totalMs: run.ms });
  report.notes.push(`deliver-events: ${n} webhooks in ${run.runs} run(s) of batch ${SIZES.jobBatch}`);
}

/** A webhook receiver on 127.0.0.1 that answers 200 to everything and counts. */
async function startCountingReceiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
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
