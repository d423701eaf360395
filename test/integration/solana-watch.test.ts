import { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits } from '../../server/lib/decimal';
import { solanaWatchHarness } from '../support/solana-watch-harness';
import { startLocalSolana, type LocalSolana } from '../support/solana/local-solana';
import { newMerchant } from '../support/test-server';
import { until } from '../support/until';

/**
 * The scanner on Solana reads what account notifications name (accountSubscribe per watched token
 * account over one websocket), not every watched account each cycle: idle, it reads only its
 * backstop; a notification lost (muted, or the websocket cut mid-payment) is made up by the sweep
 * after reconnecting or by the backstop, and the payment is credited once.
 */

let chain: LocalSolana;
let usdt: PublicKey;
let h: ReturnType<typeof solanaWatchHarness>;

beforeAll(async () => {
  chain = await startLocalSolana();
  usdt = await chain.createMint();
  h = solanaWatchHarness(chain, usdt);
});
afterEach(() => h.stopServers());
afterAll(async () => {
  await chain?.stop();
});

describe('Solana account notifications', () => {
  it('reads only the account a notification names, and nothing else while idle but its backstop', async () => {
    // The backstop would read one account every 10 minutes: out of this test's way.
    const { server } = await h.scanner({ SCAN_POLL_SECONDS: '600', SCAN_BACKSTOP_TARGETS: '1' });
    const shops = await h.openOrders(server, 12);
    await h.subscribed(12);
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
      async () => (await h.statusOf(server, paid.reference)).status === 'PAID',
      10_000,
    );
    await h.expectCreditedOnce(server, paid.reference, paid.amount);
    // The paid wallet's account was read; not the 11 others (at most the payer's new account
    // notification is for an account nobody watches).
    expect(chain.rpcCalls.getSignaturesForAddress ?? 0).toBeLessThanOrEqual(2);
  }, 60_000);

  it('credits a payment made while the websocket was cut once it reconnects, once', async () => {
    const { server, logs } = await h.scanner({ SCAN_POLL_SECONDS: '600', SCAN_BACKSTOP_TARGETS: '1' });
    const shops = await h.openOrders(server, 3);
    await h.subscribed(3);

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
      expect((await h.statusOf(server, paid.reference)).status).toBe('PENDING');
      chain.dropWebSockets();
    } finally {
      chain.muteAccountNotifications(false);
    }
    await until(
      'the order is paid',
      async () => (await h.statusOf(server, paid.reference)).status === 'PAID',
      15_000,
    );
    await h.expectCreditedOnce(server, paid.reference, paid.amount);
    expect(logs.some((l) => l.msg.startsWith('account notifications disconnected'))).toBe(true);
    // A second cut, and the sweeps after it, credit nothing twice.
    chain.dropWebSockets();
    await until('subscribed again', () => chain.webSockets >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await h.expectCreditedOnce(server, paid.reference, paid.amount);
  }, 60_000);

  it('finds a payment whose notification was lost, without a reconnect, by the backstop in turn', async () => {
    const { server } = await h.scanner({ SCAN_POLL_SECONDS: '1', SCAN_BACKSTOP_TARGETS: '2' });
    const shops = await h.openOrders(server, 8);
    await h.subscribed(8);
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
        async () => (await h.statusOf(server, paid.reference)).status === 'PAID',
        20_000,
      );
      await h.expectCreditedOnce(server, paid.reference, paid.amount);
      // Two accounts a second in turn: never all eight each cycle.
      const seconds = Math.max(1, (Date.now() - started) / 1000);
      expect(chain.rpcCalls.getSignaturesForAddress ?? 0).toBeLessThanOrEqual(2 * (seconds + 2) + 2);
    } finally {
      chain.muteAccountNotifications(false);
    }
  }, 60_000);

  it('a reported payment still waiting for its next check is settled by the scanner that finds it final, and the one behind it follows', async () => {
    // The verifier runs only when woken, and a claim not final yet is looked at again in 10 minutes.
    const { server } = await h.scanner({
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
    await h.subscribed(1);
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
        (await h.statusOf(server, reported.reference)).status === 'PAID' &&
        (await h.statusOf(server, unreported.reference)).status === 'PAID',
      10_000,
    );
    await h.expectCreditedOnce(server, reported.reference, reported.amount);
    await h.expectCreditedOnce(server, unreported.reference, unreported.amount);
  }, 60_000);
});
