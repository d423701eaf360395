import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits } from '../../contract/decimal';
import { MAX_OPEN_UNSIGNED_CLAIMS } from '../../server/orders/submit-payment-claim';
import { scanPayments } from '../../server/payments/scan-payments';
import { encodeBase58 } from '../../server/lib/base58';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { expectErrorBody, newMerchant, startTestServer, TEST_PASSWORD } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { startWebhookReceiver } from '../support/webhook-receiver';

/**
 * Several instances of the service on one database: limits counted across them, a busy address
 * scanned by three workers with a short lease, and work committed in one instance waking the
 * others at once.
 */

let chain: LocalSolana;
let usdt: PublicKey;
const servers: TestServer[] = [];

async function instance(env: Record<string, string>, logs?: { msg: string }[]) {
  const logger = logs
    ? pino({ level: 'warn' }, { write: (line: string) => void logs.push(JSON.parse(line)) })
    : undefined;
  const server = await startTestServer(
    {
      SOLANA_RPC_URL: chain.url,
      USDT_MINT_SOLANA: usdt.toBase58(),
      JOBS: 'none',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ...env,
    },
    logger ? { logger } : {},
  );
  servers.push(server);
  return server;
}

beforeAll(async () => {
  chain = await startLocalSolana();
  usdt = await chain.createMint();
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await chain?.stop();
});

describe('rate limits shared by two instances', () => {
  it('counts failed logins across instances, per client and e-mail', async () => {
    const env = { LOGIN_RATE_LIMIT_MAX: '4', LOGIN_RATE_LIMIT_WINDOW_SECONDS: '60' };
    const [a, b] = [await instance(env), await instance(env)];
    const m = await newMerchant(a);
    for (let i = 0; i < 4; i++) {
      const res = await [a, b][i % 2]!.api('POST', '/auth/login', {
        body: { email: m.email, password: `wrong ${i}` },
      });
      expect(res.status).toBe(401);
    }
    // Two failures on each instance: the fifth try is refused on either, even with the right password.
    for (const server of [a, b]) {
      const res = await server.api('POST', '/auth/login', {
        body: { email: m.email, password: TEST_PASSWORD },
      });
      expectErrorBody(res, 429, 'RATE_LIMITED');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('limits authenticated calls per merchant and second across instances, not per address', async () => {
    const env = { API_RATE_LIMIT_PER_SECOND: '6' };
    const [a, b] = [await instance(env), await instance(env)];
    const busy = await newMerchant(a);
    const quiet = await newMerchant(a);
    // Start right after a second boundary, so all 12 calls fall into one window.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => [a, b][i % 2]!.api('GET', '/users/me', { token: busy.token })),
    );
    const limited = statuses.filter((r) => r.status === 429);
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(6);
    expect(limited).toHaveLength(6);
    expect(limited[0]!.headers.get('retry-after')).toBe('1');
    // Another merchant behind the same address is not starved.
    expect((await b.api('GET', '/users/me', { token: quiet.token })).status).toBe(200);
  });

  it('limits public routes per client address across instances (behind a trusted proxy)', async () => {
    const env = { PUBLIC_RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY: '1' };
    const [a, b] = [await instance(env), await instance(env)];
    const reference = Keypair.generate().publicKey.toBase58();
    // The proxy in front says who the client is; each test run uses client addresses of its own.
    const client = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await [a, b][i % 2]!.api('GET', `/pay/${reference}/info`, from(client))).status);
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    // Another client behind the same proxy is not affected; health checks are never limited.
    expect(
      (await a.api('GET', `/pay/${reference}/info`, from(`203.0.113.${Math.floor(Math.random() * 200) + 1}`)))
        .status,
    ).toBe(404);
    expect((await a.api('GET', '/healthz', from(client))).status).toBe(200);
  });
});

describe('hostile load', () => {
  it(`keeps at most ${MAX_OPEN_UNSIGNED_CLAIMS} reported transactions under check per order from the public route`, async () => {
    const server = await instance({});
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await server.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '1' },
    });
    const madeUp = () => encodeBase58(Keypair.generate().secretKey);
    for (let i = 0; i < MAX_OPEN_UNSIGNED_CLAIMS; i++)
      expect(
        (await server.api('POST', `/pay/${order.body.reference}/submit-tx`, { body: { txId: madeUp() } }))
          .status,
      ).toBe(202);
    const refused = await server.api('POST', `/pay/${order.body.reference}/submit-tx`, {
      body: { txId: madeUp() },
    });
    expectErrorBody(refused, 429, 'RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const claims = await server.deps.db.models.PaymentClaim.count({
      where: {
        orderId: (await server.deps.db.models.Order.findOne({ where: { reference: order.body.reference } }))!
          .id,
      },
    });
    expect(claims).toBe(MAX_OPEN_UNSIGNED_CLAIMS);
  });
});

describe('three workers scanning one busy address with a short lease', () => {
  it('settles every payment exactly once and skips none', async () => {
    // Reads may take longer than the lease, never than the RPC timeout (a timed-out read is a
    // postponed scan, not a stall).
    const env = { JOB_LEASE_SECONDS: '1', RPC_TIMEOUT_MS: '6000' };
    const logs: { msg: string }[] = [];
    const workers = [await instance(env, logs), await instance(env, logs), await instance(env, logs)];
    const m = await newMerchant(workers[0]!);
    const wallet = Keypair.generate().publicKey;
    expect(
      (
        await workers[0]!.api('POST', '/users/me/wallets', {
          token: m.token,
          body: { network: 'SOLANA', public_address: wallet.toBase58() },
        })
      ).status,
    ).toBe(201);
    const payer = await chain.newPayer({ mint: usdt, units: 10_000_000_000n });
    const orders: { reference: string; amount: string }[] = [];
    for (let i = 0; i < 24; i++) {
      const res = await workers[i % 3]!.api('POST', '/orders', {
        token: m.token,
        body: { network: 'SOLANA', token: 'USDT', amount: `${i + 1}.5` },
      });
      expect(res.status, res.text).toBe(201);
      orders.push(res.body);
    }
    // Every worker has seen the address (its cursor is set) before the payments land.
    await Promise.all(workers.map((w) => scanPayments(w.deps)));
    let lastSignature = '';
    for (const [i, order] of orders.entries())
      lastSignature = await chain.transfer({
        payer,
        recipientOwner: wallet,
        mint: usdt,
        amountUnits: parseUnits(order.amount, 6),
        // Half carry the reference, half are matched by their (unique) amount.
        reference: i % 2 === 0 ? new PublicKey(order.reference) : undefined,
      });
    // Slow reads, and now and then one three times slower than the whole 1 s lease: that worker
    // stalls, another takes the address over (it has 2 s to, even on a loaded machine), and the
    // stalled one must notice and write nothing.
    let reads = 0;
    chain.setRpcFault((method) =>
      method === 'getTransaction' ? { delayMs: ++reads % 6 === 0 ? 3000 : 60 } : undefined,
    );
    const { Order, PaymentClaim, AuditEntry } = workers[0]!.deps.db.models;
    const paid = () => Order.count({ where: { reference: orders.map((o) => o.reference), status: 'PAID' } });
    const deadline = Date.now() + 60_000;
    try {
      // Each worker cycles on its own, as instances do: one may lease the address while another stalls.
      await Promise.all(
        workers.map(async (w, i) => {
          while ((await paid()) < orders.length && Date.now() < deadline)
            await scanPayments(w.deps, { owner: `worker-${i}`, maxPerAddress: 10 });
        }),
      );
    } finally {
      chain.setRpcFault(null);
    }
    expect(await paid()).toBe(orders.length);
    const claims = await PaymentClaim.findAll({ where: { status: 'VERIFIED' } });
    const mine = claims.filter((c) => c.amountUnits !== null);
    expect(new Set(mine.map((c) => c.txId)).size).toBe(mine.length);
    for (const order of orders) {
      const row = await Order.findOne({ where: { reference: order.reference } });
      expect(row!.amountReceivedUnits).toBe(parseUnits(order.amount, 6));
      const verified = await AuditEntry.count({ where: { orderId: row!.id, type: 'payment.verified' } });
      expect(verified, order.reference).toBe(1);
    }
    // Take-overs happened (a stalled worker found its lease gone and wrote nothing), and the cursor
    // ends at the newest payment, released: no stale worker set it back.
    expect(logs.filter((l) => l.msg === 'scan lease lost to another worker').length).toBeGreaterThan(0);
    await Promise.all(workers.map((w) => scanPayments(w.deps)));
    const [cursor] = await workers[0]!.deps.db.sequelize.query<{ cursor: string; locked_by: string | null }>(
      `SELECT cursor, locked_by FROM scan_cursors WHERE network = 'SOLANA' AND address = :address`,
      {
        type: QueryTypes.SELECT,
        replacements: { address: getAssociatedTokenAddressSync(usdt, wallet, true).toBase58() },
      },
    );
    expect(cursor).toEqual({ cursor: lastSignature, locked_by: null });
  }, 120_000);
});

describe('wake-ups', () => {
  it('delivers a committed event within about a second, not at the next scheduled run', async () => {
    const receiver = await startWebhookReceiver();
    try {
      // The sender's schedule is hourly: only a wake-up can make it send now.
      const sender = await instance({ JOBS: 'deliver-events', JOB_DELIVER_EVENTS_CRON: '0 0 * * * *' });
      const api = await instance({});
      const m = await newMerchant(api, { wallets: ['SOLANA'] });
      await api.api('POST', '/users/me/webhook-secret', { token: m.token });
      await api.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: receiver.url } });
      await new Promise((r) => setTimeout(r, 300)); // the listener is connected
      const started = Date.now();
      const order = await api.api('POST', '/orders', {
        token: m.token,
        body: { network: 'SOLANA', token: 'USDT', amount: '3' },
      });
      expect(order.status).toBe(201);
      while (!receiver.received.some((h) => h.json.data.order.reference === order.body.reference)) {
        if (Date.now() - started > 5000) throw new Error('the webhook did not arrive within 5 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(Date.now() - started).toBeLessThan(3000);
      expect(sender.deps.config.jobs.has('deliver-events')).toBe(true);
    } finally {
      await receiver.stop();
    }
  });
});
