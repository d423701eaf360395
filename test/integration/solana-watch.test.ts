import { Keypair, PublicKey } from '@solana/web3.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits } from '../../server/lib/decimal';
import { startLocalSolana, type LocalSolana } from '../support/solana/local-solana';
import { newMerchant, startTestServer, type TestServer } from '../support/test-server';
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
afterAll(async () => {
  for (const server of servers) await server.stop();
  await chain?.stop();
});

type LogLine = { level: number; msg: string; [k: string]: unknown };

/** A server running only the scanner (every second), over the local chain's RPC and websocket. */
async function scanner(env: Record<string, string>) {
  const logs: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const server = await startTestServer(
    { JOBS: 'scan-payments', SOLANA_RPC_URL: chain.url, USDT_MINT_SOLANA: usdt.toBase58(), ...env },
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
    chain.resetRpcCalls();
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
});
