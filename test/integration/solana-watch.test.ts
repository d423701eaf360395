import { Keypair, PublicKey } from '@solana/web3.js';
import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits } from '../../server/lib/decimal';
import { startLocalSolana, type LocalSolana } from '../support/solana/local-solana';
import { createTestDatabase, newMerchant, startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

/**
 * The scanner on Solana reads what account notifications name (accountSubscribe per watched token
 * account over one websocket), not every watched account each cycle: idle, it reads only its
 * backstop; a notification lost (muted, or the websocket cut mid-payment) is made up by the sweep
 * after reconnecting or by the backstop, and the payment is credited once.
 */

let chain: LocalSolana;
let usdt: PublicKey;
const servers: TestServer[] = [];

beforeAll(async () => {
  chain = await startLocalSolana();
  usdt = await chain.createMint();
});
// Each test's server stops with it: the chain counts every caller's requests.
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  chain.muteAccountNotifications(false);
});
afterAll(async () => {
  await chain?.stop();
});

type LogLine = { level: number; msg: string; [k: string]: unknown };

/** A server running only the scanner (every second), over the local chain's RPC and websocket. */
async function scanner(env: Record<string, string>) {
  chain.resetRpcCalls();
  const logs: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const server = await startTestServer(
    {
      // A database of its own: no other test's open orders are watched.
      DATABASE_URL: await createTestDatabase(),
      JOBS: 'scan-payments',
      SOLANA_RPC_URL: chain.url,
      USDT_MINT_SOLANA: usdt.toBase58(),
      ...env,
    },
    { logger },
  );
  servers.push(server);
  return { server, logs };
}

/** `count` shops, each with a wallet of its own and one open order for an amount nobody reports. */
async function openOrders(server: TestServer, count: number) {
  const shops: { wallet: PublicKey; reference: string; amount: string }[] = [];
  for (let i = 0; i < count; i++) {
    const m = await newMerchant(server);
    const wallet = Keypair.generate().publicKey;
    const added = await server.api('POST', '/users/me/wallets', {
      token: m.token,
      body: { network: 'SOLANA', public_address: wallet.toBase58() },
    });
    expect(added.status, added.text).toBe(201);
    const order = await server.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: `${i + 1}.25` },
    });
    expect(order.status, order.text).toBe(201);
    shops.push({ wallet, reference: order.body.reference, amount: order.body.amount });
  }
  return shops;
}

const statusOf = async (server: TestServer, reference: string) =>
  (await server.deps.db.models.Order.findOne({ where: { reference } }))!;

async function expectCreditedOnce(server: TestServer, reference: string, amount: string) {
  const order = await statusOf(server, reference);
  expect(order.status).toBe('PAID');
  expect(order.amountReceivedUnits).toBe(parseUnits(amount, 6));
  const verified = await server.deps.db.models.AuditEntry.count({
    where: { orderId: order.id, type: 'payment.verified' },
  });
  expect(verified).toBe(1);
}

/** `count` more open orders like `template`, each to a wallet of its own (inserted); their owners. */
async function insertWalletOrders(server: TestServer, template: string, count: number) {
  const owners = Array.from({ length: count }, () => Keypair.generate().publicKey);
  await server.deps.db.sequelize.query(
    `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient,
                         amount_units, status, expires_at, created_at, updated_at)
     SELECT r.reference, o.merchant_id, o.wallet_id, o.network, o.token, o.token_mint, r.recipient,
            o.amount_units + r.i, 'PENDING', o.expires_at, now(), now()
       FROM orders o,
            unnest(ARRAY[:recipients]::text[], ARRAY[:references]::text[]) WITH ORDINALITY AS r(recipient, reference, i)
      WHERE o.reference = :template`,
    {
      replacements: {
        recipients: owners.map((o) => o.toBase58()),
        references: owners.map(() => Keypair.generate().publicKey.toBase58()),
        template,
      },
    },
  );
  return owners;
}

/** Subscriptions for `accounts` token accounts are live (the server subscribed each). */
async function subscribed(accounts: number) {
  await until('account subscriptions', () => (chain.rpcCalls.accountSubscribe ?? 0) >= accounts, 20_000);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the sweep after subscribing is done
}

describe('Solana account notifications', () => {
  it('reads only the account a notification names, and nothing else while idle but its backstop', async () => {
    // The backstop would read one account every 10 minutes: out of this test's way.
    const { server } = await scanner({ SCAN_POLL_SECONDS: '600', SCAN_BACKSTOP_TARGETS: '1' });
    const shops = await openOrders(server, 12);
    await subscribed(12);
    expect(chain.webSockets).toBeGreaterThanOrEqual(1);

    chain.resetRpcCalls();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    // Three idle seconds, a scan cycle each second: no account read.
    expect(chain.rpcCalls.getSignaturesForAddress ?? 0).toBe(0);

    const payer = await chain.newPayer({ mint: usdt, units: 1_000_000_000n });
    const paid = shops[7]!;
    chain.resetRpcCalls();
    await chain.transfer({
      payer,
      recipientOwner: paid.wallet,
      mint: usdt,
      amountUnits: parseUnits(paid.amount, 6),
    });
    await until(
      'the order is paid',
      async () => (await statusOf(server, paid.reference)).status === 'PAID',
      10_000,
    );
    await expectCreditedOnce(server, paid.reference, paid.amount);
    // The paid wallet's account was read; not the 11 others (at most the payer's new account
    // notification is for an account nobody watches).
    expect(chain.rpcCalls.getSignaturesForAddress ?? 0).toBeLessThanOrEqual(2);
  }, 60_000);

  it('credits a payment made while the websocket was cut once it reconnects, once', async () => {
    const { server, logs } = await scanner({ SCAN_POLL_SECONDS: '600', SCAN_BACKSTOP_TARGETS: '1' });
    const shops = await openOrders(server, 3);
    await subscribed(3);

    const payer = await chain.newPayer({ mint: usdt, units: 1_000_000_000n });
    const paid = shops[1]!;
    // The payment's notification is lost (as on a connection about to drop), then the connection is cut.
    chain.muteAccountNotifications(true);
    try {
      await chain.transfer({
        payer,
        recipientOwner: paid.wallet,
        mint: usdt,
        amountUnits: parseUnits(paid.amount, 6),
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await statusOf(server, paid.reference)).status).toBe('PENDING');
      chain.dropWebSockets();
    } finally {
      chain.muteAccountNotifications(false);
    }
    await until(
      'the order is paid',
      async () => (await statusOf(server, paid.reference)).status === 'PAID',
      15_000,
    );
    await expectCreditedOnce(server, paid.reference, paid.amount);
    expect(logs.some((l) => l.msg.startsWith('account notifications disconnected'))).toBe(true);
    // A second cut, and the sweeps after it, credit nothing twice.
    chain.dropWebSockets();
    await until('subscribed again', () => chain.webSockets >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await expectCreditedOnce(server, paid.reference, paid.amount);
  }, 60_000);

  it('finds a payment whose notification was lost, without a reconnect, by the backstop in turn', async () => {
    const { server } = await scanner({ SCAN_POLL_SECONDS: '1', SCAN_BACKSTOP_TARGETS: '2' });
    const shops = await openOrders(server, 8);
    await subscribed(8);
    const payer = await chain.newPayer({ mint: usdt, units: 1_000_000_000n });
    chain.muteAccountNotifications(true);
    try {
      chain.resetRpcCalls();
      // The last shop's account, read last in turn: not starved.
      const paid = shops[7]!;
      await chain.transfer({
        payer,
        recipientOwner: paid.wallet,
        mint: usdt,
        amountUnits: parseUnits(paid.amount, 6),
      });
      const started = Date.now();
      await until(
        'the order is paid',
        async () => (await statusOf(server, paid.reference)).status === 'PAID',
        20_000,
      );
      await expectCreditedOnce(server, paid.reference, paid.amount);
      // Two accounts a second in turn: never all eight each cycle.
      const seconds = Math.max(1, (Date.now() - started) / 1000);
      expect(chain.rpcCalls.getSignaturesForAddress ?? 0).toBeLessThanOrEqual(2 * (seconds + 2) + 2);
    } finally {
      chain.muteAccountNotifications(false);
    }
  }, 60_000);

  it('never sends more than SOLANA_RPC_MAX_RPS calls a second under 1,000 watched wallets, subscriptions included; none starved', async () => {
    const budget = 200;
    const { server } = await scanner({ SOLANA_RPC_MAX_RPS: String(budget), SCAN_POLL_SECONDS: '600' });
    const [first] = await openOrders(server, 1);
    const owners = await insertWalletOrders(server, first!.reference, 999);
    const total = () => Object.values(chain.rpcCalls).reduce((a, b) => a + b, 0);
    const samples: { at: number; calls: number }[] = [];
    const sampler = setInterval(() => samples.push({ at: performance.now(), calls: total() }), 20);
    try {
      // Every account subscribed, then every account read once (the sweep after subscribing).
      await until('1,000 subscriptions', () => (chain.rpcCalls.accountSubscribe ?? 0) >= 1000, 40_000);
      await until('1,000 accounts read', () => (chain.rpcCalls.getSignaturesForAddress ?? 0) >= 1000, 40_000);
    } finally {
      clearInterval(sampler);
    }
    samples.push({ at: performance.now(), calls: total() });
    // In every window of a second or more, at most the budget's calls: one more for the slot at
    // the window's start, the rest for the calls' way to the chain and the sampling's own lag.
    for (let i = 0; i < samples.length; i += 5)
      for (let j = i + 1; j < samples.length; j++) {
        const seconds = (samples[j]!.at - samples[i]!.at) / 1000;
        if (seconds < 1) continue;
        expect(samples[j]!.calls - samples[i]!.calls).toBeLessThanOrEqual(budget * seconds + 5);
      }
    // The last wallet of the list is watched like the first: paid, found by its notification.
    const last = owners.at(-1)!;
    const [row] = await server.deps.db.sequelize.query<{ reference: string; amount_units: string }>(
      `SELECT reference, amount_units FROM orders WHERE recipient = :last`,
      { type: QueryTypes.SELECT, replacements: { last: last.toBase58() } },
    );
    const payer = await chain.newPayer({ mint: usdt, units: 100_000_000_000n });
    await chain.transfer({ payer, recipientOwner: last, mint: usdt, amountUnits: BigInt(row!.amount_units) });
    await until(
      "the last wallet's order is paid",
      async () => (await statusOf(server, row!.reference)).status === 'PAID',
      15_000,
    );
  }, 120_000);

  it('a reported payment still waiting for its next check is settled by the scanner that finds it final, and the one behind it follows', async () => {
    // The verifier runs only when woken, and a claim not final yet is looked at again in 10 minutes.
    const { server } = await scanner({
      JOBS: 'scan-payments,verify-payments',
      JOB_VERIFY_PAYMENTS_CRON: '0 0 * * * *',
      PAYMENT_RECHECK_MS: '600000',
      SCAN_POLL_SECONDS: '600',
    });
    const m = await newMerchant(server);
    const wallet = Keypair.generate().publicKey;
    const added = await server.api('POST', '/users/me/wallets', {
      token: m.token,
      body: { network: 'SOLANA', public_address: wallet.toBase58() },
    });
    expect(added.status, added.text).toBe(201);
    const create = (amount: string) =>
      server.api('POST', '/orders', { token: m.token, body: { network: 'SOLANA', token: 'USDT', amount } });
    const reported = (await create('4.5')).body;
    const unreported = (await create('6.5')).body;
    await subscribed(1);
    const payer = await chain.newPayer({ mint: usdt, units: 1_000_000_000n });
    chain.holdFinality(true);
    try {
      const txId = await chain.transfer({
        payer,
        recipientOwner: wallet,
        mint: usdt,
        amountUnits: parseUnits(reported.amount, 6),
        reference: new PublicKey(reported.reference),
      });
      const submitted = await server.api('POST', `/pay/${reported.reference}/submit-tx`, { body: { txId } });
      expect(submitted.status, submitted.text).toBe(202);
      // Checked once on submission: not final yet, so its claim waits for its next check.
      await until('the claim was checked', async () => {
        const claim = await server.deps.db.models.PaymentClaim.findOne({ where: { txId } });
        return claim !== null && claim.nextCheckAt.getTime() > Date.now() + 60_000;
      });
      await chain.transfer({
        payer,
        recipientOwner: wallet,
        mint: usdt,
        amountUnits: parseUnits(unreported.amount, 6),
      });
    } finally {
      chain.holdFinality(false); // both final now: the account's notification comes
    }
    await until(
      'both orders are paid',
      async () =>
        (await statusOf(server, reported.reference)).status === 'PAID' &&
        (await statusOf(server, unreported.reference)).status === 'PAID',
      10_000,
    );
    await expectCreditedOnce(server, reported.reference, reported.amount);
    await expectCreditedOnce(server, unreported.reference, unreported.amount);
  }, 60_000);
});
