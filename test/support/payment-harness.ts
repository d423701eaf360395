import { createHmac } from 'node:crypto';
import type { Payment } from '../../contract';
import { createLogger } from '../../server/lib/logger';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { newMerchant, startTestServer, type TestServer } from './test-server';
import { startWebhookReceiver, type ReceivedWebhook } from './webhook-receiver';

/**
 * The service, a webhook receiver and helpers that drive payment jobs by hand, shared by the
 * payment suites of every network. Jobs are off in the server: each test decides when the
 * verifier, the scanner and the webhook sender run.
 */

export type PaidOrder = {
  reference: string;
  status: string;
  network: string;
  token: string;
  decimals: number;
  amount: string;
  amountReceived: string;
  tokenMintOrContract: string;
  recipient: string;
  payUrl: string;
  txRequestUrl: string | null;
  txId: string | null;
  paidAt: string | null;
  paidLate: boolean;
  expiresAt: string;
  [k: string]: unknown;
};
export type AuditEntry = { type: string; actor: string; data: Record<string, unknown>; createdAt: string };
type LogLine = { level: number; msg: string; err?: unknown; [k: string]: unknown };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startPaymentHarness(
  env: Record<string, string>,
  opts: {
    /** Lines kept from this level (default warn: job failures, postponed scans and checks). */
    logLevel?: string;
    /** The service's clock (default the real one), for tests that move time on. */
    clock?: () => Date;
  } = {},
) {
  const receiver = await startWebhookReceiver();
  /** The service's log lines, written by its own logger (redaction included). */
  const logs: LogLine[] = [];
  const logger = createLogger(opts.logLevel ?? 'warn', {
    write: (line: string) => void logs.push(JSON.parse(line)),
  });
  const server: TestServer = await startTestServer(
    {
      JOBS: 'none',
      PAYMENT_RECHECK_MS: '50',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
      API_RATE_LIMIT_PER_MINUTE: '100000',
      LOGIN_RATE_LIMIT_MAX: '100000',
      ...env,
    },
    { logger, ...(opts.clock ? { clock: opts.clock } : {}) },
  );

  /** A merchant with a wallet on `network`, a webhook secret, and webhooks to a path of its own. */
  async function newShop(network: string, wallet: string) {
    const m = await newMerchant(server, { name: 'Chain Shop' });
    const added = await server.api('POST', '/users/me/wallets', {
      token: m.token,
      body: { network, public_address: wallet, name: 'Till' },
    });
    expect(added.status, added.text).toBe(201);
    const path = `/shop/${m.id}`;
    const secret = (await server.api('POST', '/users/me/webhook-secret', { token: m.token })).body
      .webhook_secret as string;
    const patched = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { webhook_url: receiver.url.replace('/hooks', path) },
    });
    expect(patched.status, patched.text).toBe(200);
    return {
      ...m,
      network,
      wallet: added.body.public_address as string,
      walletId: added.body.wallet_id as string,
      secret,
      path,
    };
  }
  /** What the helpers need of a shop (tests may carry the wallet in their own form). */
  type Shop = { token: string; network: string; path: string; secret: string };

  async function createOrder(shop: Shop, body: Record<string, unknown>) {
    const res = await server.api<PaidOrder>('POST', '/orders', {
      token: shop.token,
      body: { network: shop.network, token: 'USDT', ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  async function getOrder(shop: Shop, reference: string): Promise<PaidOrder> {
    const res = await server.api<PaidOrder>('GET', `/orders/${reference}`, { token: shop.token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  /** The order's timeline without the webhook bookkeeping. */
  async function auditOf(shop: Shop, reference: string): Promise<AuditEntry[]> {
    const res = await server.api('GET', `/orders/${reference}/audit`, { token: shop.token });
    expect(res.status, res.text).toBe(200);
    return (res.body.items as AuditEntry[]).filter((e) => !e.type.startsWith('webhook.'));
  }

  async function ledgerOf(shop: Shop, reference: string): Promise<Payment[]> {
    const res = await server.api('GET', `/orders/${reference}/payments`, { token: shop.token });
    expect(res.status, res.text).toBe(200);
    return res.body.items as Payment[];
  }

  function signedBy(hook: ReceivedWebhook, secret: string) {
    const header = String(hook.headers['x-webhook-signature']);
    const t = /t=(\d+)/.exec(header)?.[1];
    const expected = createHmac('sha256', secret).update(`${t}.${hook.body}`).digest('hex');
    return header.split(',').includes(`v1=${expected}`);
  }

  /** Webhooks received for an order, in event order; each one checked against the shop's secret. */
  function webhooksFor(shop: Shop, reference: string) {
    const hooks = receiver.received
      .filter((h) => h.url === shop.path && h.json.data.order?.reference === reference)
      .map((h, i) => ({ h, i, at: String((h.json as { createdAt?: string }).createdAt) }))
      .sort((a, b) => a.at.localeCompare(b.at) || a.i - b.i)
      .map(({ h }) => h);
    for (const hook of hooks)
      expect(signedBy(hook, shop.secret), `signature of ${hook.json.type}`).toBe(true);
    return hooks;
  }

  const statusChanges = (audit: AuditEntry[]) =>
    audit
      .filter((e) => e.type === 'status.changed')
      .map((e) => `${String(e.data.from)}->${String(e.data.to)}`);

  async function deliverWebhooks() {
    while ((await server.jobs.runNow('deliver-events')) > 0);
  }

  /** One batch of each payment job, then the webhooks they produced, until `done` holds. */
  async function runJobs(
    done: () => Promise<boolean>,
    opts: { timeoutMs?: number; between?: () => Promise<void> } = {},
  ) {
    const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
    for (;;) {
      await server.jobs.runNow('verify-payments');
      await server.jobs.runNow('scan-payments');
      await deliverWebhooks();
      if (await done()) return;
      if (Date.now() > deadline) throw new Error('payment jobs: condition not met in time');
      await opts.between?.();
      await sleep(50);
    }
  }

  return {
    server,
    receiver,
    logs,
    newShop,
    createOrder,
    getOrder,
    auditOf,
    ledgerOf,
    /** Checks that the order stands at `status` with `amountReceived` credited. */
    async expectOrder(shop: Shop, reference: string, status: string, amountReceived: string) {
      expect(await getOrder(shop, reference)).toMatchObject({ status, amountReceived });
    },
    webhooksFor,
    webhookTypes: (shop: Shop, reference: string) => webhooksFor(shop, reference).map((h) => h.json.type),
    lastWebhook: (shop: Shop, reference: string, type: string) =>
      webhooksFor(shop, reference)
        .filter((h) => h.json.type === type)
        .at(-1)?.json.data.order as PaidOrder | undefined,
    statusChanges,
    /** Checks the order's status moves (its audit) and the webhooks sent for it, each in order. */
    async expectHistory(shop: Shop, reference: string, moves: string[], webhooks: string[]) {
      expect(statusChanges(await auditOf(shop, reference))).toEqual(moves);
      expect(webhooksFor(shop, reference).map((h) => h.json.type)).toEqual(webhooks);
    },
    deliverWebhooks,
    runJobs,
    /** Runs the jobs until the order has `status`, then returns it. */
    async settle(
      shop: Shop,
      reference: string,
      status: string,
      opts: { timeoutMs?: number; between?: () => Promise<void> } = {},
    ) {
      let order: PaidOrder | undefined;
      await runJobs(async () => (order = await getOrder(shop, reference)).status === status, opts);
      return order!;
    },
    /** Runs the payment jobs a few times without waiting for anything (to show nothing changes). */
    async runJobsFor(rounds: number) {
      for (let i = 0; i < rounds; i++) {
        await server.jobs.runNow('verify-payments');
        await server.jobs.runNow('scan-payments');
        await deliverWebhooks();
        await sleep(60);
      }
    },
    /** The payer's report on the public route, signed by the sending wallet when `signature` is given. */
    submitTx: (reference: string, txId: string, signature?: string) =>
      server.api('POST', `/pay/${reference}/submit-tx`, { body: { txId, signature } }),
    /** The merchant's attribution of a transfer to its order. */
    attribute: (shop: Shop, reference: string, txId: string) =>
      server.api('POST', `/orders/${reference}/submit-tx`, { token: shop.token, body: { txId } }),
    /** Job failures are logged and swallowed by the scheduler: a test calls this to fail on them. */
    takeJobFailures() {
      const failures = logs.filter((l) => l.msg === 'job failed');
      logs.length = 0;
      return failures;
    },
    async stop() {
      await server.stop();
      await receiver.stop();
    },
  };
}
export type PaymentHarness = Awaited<ReturnType<typeof startPaymentHarness>>;
export type HarnessShop = Awaited<ReturnType<PaymentHarness['newShop']>>;

type Stoppable = { stop(): unknown };

/**
 * A file's payment stack: `start` runs before its tests (chains, then harnesses); after each test no
 * job may have failed on any harness among `parts`; after the tests every part that started stops,
 * in the order listed (harnesses first, then what they talk to). `parts` is read when it is needed,
 * so a start that failed half way still stops what it started.
 */
export function usePaymentStack(
  start: () => Promise<unknown>,
  parts: () => (Stoppable | undefined)[],
  timeoutMs = 120_000,
): void {
  const harnesses = () => parts().filter((p): p is PaymentHarness => !!p && 'takeJobFailures' in p);
  beforeAll(start, timeoutMs);
  afterEach(() => {
    // A job that throws is logged and swallowed by the scheduler: make it fail the test instead.
    for (const harness of harnesses()) expect(harness.takeJobFailures()).toEqual([]);
  });
  afterAll(async () => {
    for (const part of parts()) await part?.stop();
  });
}
