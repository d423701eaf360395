import { Keypair, type PublicKey } from '@solana/web3.js';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { parseUnits } from '../../contract/decimal';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { createTestDatabase, newMerchant, startTestServer, type TestServer } from './test-server';
import { until } from './until';
import { insertWalletOrders as insertOrders } from './insert-wallet-orders';

/**
 * Servers that run the scanner over a local Solana chain's RPC and websocket, each on a database of
 * its own, and what the account-notification suites do with them. stopServers() after each test:
 * the chain counts every caller's requests.
 */
export function solanaWatchHarness(chain: LocalSolana, usdt: PublicKey) {
  const servers: TestServer[] = [];
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

  /** A merchant with a Solana wallet of its own (a fresh address). */
  async function newShop(server: TestServer) {
    const m = await newMerchant(server);
    const wallet = Keypair.generate().publicKey;
    const added = await server.api('POST', '/users/me/wallets', {
      token: m.token,
      body: { network: 'SOLANA', public_address: wallet.toBase58() },
    });
    expect(added.status, added.text).toBe(201);
    return { m, wallet };
  }

  /** `count` shops, each with a wallet of its own and one open order for an amount nobody reports. */
  async function openOrders(server: TestServer, count: number) {
    const shops: { wallet: PublicKey; reference: string; amount: string }[] = [];
    for (let i = 0; i < count; i++) {
      const { m, wallet } = await newShop(server);
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

  /** Waits until every one of `orders` is PAID on `server`, saying `what` it waited for. */
  const untilPaid = (server: TestServer, what: string, orders: { reference: string }[], timeoutMs: number) =>
    until(
      what,
      async () => {
        for (const { reference } of orders)
          if ((await statusOf(server, reference)).status !== 'PAID') return false;
        return true;
      },
      timeoutMs,
    );

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
    const recipients = owners.map((o) => o.toBase58());
    await insertOrders(server.deps.db.sequelize, template, recipients, { distinctAmounts: true });
    return owners;
  }

  /** Subscriptions for `accounts` token accounts are live (the server subscribed each). */
  async function subscribed(accounts: number) {
    await until('account subscriptions', () => (chain.rpcCalls.accountSubscribe ?? 0) >= accounts, 20_000);
    // The sweep after subscribing is done: no account read for 1.5 s (however slow the machine).
    const reads = () => chain.rpcCalls.getSignaturesForAddress ?? 0;
    let last = -1;
    let quietSince = Date.now();
    await until(
      'the sweep after subscribing',
      () => {
        if (reads() !== last) [last, quietSince] = [reads(), Date.now()];
        return Date.now() - quietSince >= 1500;
      },
      30_000,
    );
  }

  async function stopServers() {
    for (const server of servers.splice(0)) await server.stop();
    chain.muteAccountNotifications(false);
  }

  return {
    scanner,
    newShop,
    openOrders,
    statusOf,
    untilPaid,
    expectCreditedOnce,
    insertWalletOrders,
    subscribed,
    stopServers,
  };
}

type LogLine = { level: number; msg: string; [k: string]: unknown };

/**
 * A suite's local chain with a USDT mint and the harness over it, started before its tests and
 * stopped after; each test's servers stop after it. Fields are set once the suite has started.
 */
export function useSolanaWatchSuite() {
  const suite = {} as { chain: LocalSolana; usdt: PublicKey; h: ReturnType<typeof solanaWatchHarness> };
  beforeAll(async () => {
    suite.chain = await startLocalSolana();
    suite.usdt = await suite.chain.createMint();
    suite.h = solanaWatchHarness(suite.chain, suite.usdt);
  });
  afterEach(() => suite.h.stopServers());
  afterAll(async () => {
    await suite.chain?.stop();
  });
  return suite;
}
