import { PublicKey, type Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { parseUnits } from '../../contract/decimal';
import { useSolanaWatchSuite } from '../support/solana-watch-harness';
import { until } from '../support/until';

/**
 * The scanner on Solana reads what account notifications name (accountSubscribe per watched token
 * account over one websocket), not every watched account each cycle: idle, it reads only its
 * backstop; a notification lost (muted, or the websocket cut mid-payment) is made up by the sweep
 * after reconnecting or by the backstop, and the payment is credited once.
 */

const suite = useSolanaWatchSuite();

/** The payer sends `amount` USDT to the wallet without a reference, as a plain wallet app does. */
const payUntagged = (payer: Keypair, wallet: PublicKey, amount: string) =>
  suite.chain.transfer({
    payer,
    recipientOwner: wallet,
    mint: suite.usdt,
    amountUnits: parseUnits(amount, 6),
  });

describe('Solana account notifications', () => {
  it('reads only the account a notification names, and nothing else while idle but its backstop', async () => {
    // The backstop would read one account every 10 minutes: out of this test's way.
    const { server } = await suite.h.scanner({ SCAN_POLL_SECONDS: '600', SCAN_BACKSTOP_TARGETS: '1' });
    const shops = await suite.h.openOrders(server, 12);
    await suite.h.subscribed(12);
    expect(suite.chain.webSockets).toBeGreaterThanOrEqual(1);

    suite.chain.resetRpcCalls();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    // Three idle seconds, a scan cycle each second: no account read.
    expect(suite.chain.rpcCalls.getSignaturesForAddress ?? 0).toBe(0);

    const payer = await suite.chain.newPayer({ mint: suite.usdt, units: 1_000_000_000n });
    const paid = shops[7]!;
    suite.chain.resetRpcCalls();
    await payUntagged(payer, paid.wallet, paid.amount);
    await suite.h.untilPaid(server, 'the order is paid', [paid], 10_000);
    await suite.h.expectCreditedOnce(server, paid.reference, paid.amount);
    // The paid wallet's account was read; not the 11 others (at most the payer's new account
    // notification is for an account nobody watches).
    expect(suite.chain.rpcCalls.getSignaturesForAddress ?? 0).toBeLessThanOrEqual(2);
  }, 60_000);

  it('credits a payment made while the websocket was cut once it reconnects, once', async () => {
    const { server, logs } = await suite.h.scanner({ SCAN_POLL_SECONDS: '600', SCAN_BACKSTOP_TARGETS: '1' });
    const shops = await suite.h.openOrders(server, 3);
    await suite.h.subscribed(3);

    const payer = await suite.chain.newPayer({ mint: suite.usdt, units: 1_000_000_000n });
    const paid = shops[1]!;
    // The payment's notification is lost (as on a connection about to drop), then the connection is cut.
    suite.chain.muteAccountNotifications(true);
    try {
      await payUntagged(payer, paid.wallet, paid.amount);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await suite.h.statusOf(server, paid.reference)).status).toBe('PENDING');
      suite.chain.dropWebSockets();
    } finally {
      suite.chain.muteAccountNotifications(false);
    }
    await suite.h.untilPaid(server, 'the order is paid', [paid], 15_000);
    await suite.h.expectCreditedOnce(server, paid.reference, paid.amount);
    expect(logs.some((l) => l.msg.startsWith('account notifications disconnected'))).toBe(true);
    // A second cut, and the sweeps after it, credit nothing twice.
    suite.chain.dropWebSockets();
    await until('subscribed again', () => suite.chain.webSockets >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await suite.h.expectCreditedOnce(server, paid.reference, paid.amount);
  }, 60_000);

  it('finds a payment whose notification was lost, without a reconnect, by the backstop in turn', async () => {
    const { server } = await suite.h.scanner({ SCAN_POLL_SECONDS: '1', SCAN_BACKSTOP_TARGETS: '2' });
    const shops = await suite.h.openOrders(server, 8);
    await suite.h.subscribed(8);
    const payer = await suite.chain.newPayer({ mint: suite.usdt, units: 1_000_000_000n });
    suite.chain.muteAccountNotifications(true);
    try {
      suite.chain.resetRpcCalls();
      // The last shop's account, read last in turn: not starved.
      const paid = shops[7]!;
      await payUntagged(payer, paid.wallet, paid.amount);
      const started = Date.now();
      await suite.h.untilPaid(server, 'the order is paid', [paid], 20_000);
      await suite.h.expectCreditedOnce(server, paid.reference, paid.amount);
      // Two accounts a second in turn: never all eight each cycle.
      const seconds = Math.max(1, (Date.now() - started) / 1000);
      expect(suite.chain.rpcCalls.getSignaturesForAddress ?? 0).toBeLessThanOrEqual(2 * (seconds + 2) + 2);
    } finally {
      suite.chain.muteAccountNotifications(false);
    }
  }, 60_000);

  it('a reported payment still waiting for its next check is settled by the scanner that finds it final, and the one behind it follows', async () => {
    // The verifier runs only when woken, and a claim not final yet is looked at again in 10 minutes.
    const { server } = await suite.h.scanner({
      JOBS: 'scan-payments,verify-payments',
      JOB_VERIFY_PAYMENTS_CRON: '0 0 * * * *',
      PAYMENT_RECHECK_MS: '600000',
      SCAN_POLL_SECONDS: '600',
    });
    const { m, wallet } = await suite.h.newShop(server);
    const create = (amount: string) =>
      server.api('POST', '/orders', { token: m.token, body: { network: 'SOLANA', token: 'USDT', amount } });
    const reported = (await create('4.5')).body;
    const unreported = (await create('6.5')).body;
    await suite.h.subscribed(1);
    const payer = await suite.chain.newPayer({ mint: suite.usdt, units: 1_000_000_000n });
    suite.chain.holdFinality(true);
    try {
      const txId = await suite.chain.transfer({
        payer,
        recipientOwner: wallet,
        mint: suite.usdt,
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
      await payUntagged(payer, wallet, unreported.amount);
    } finally {
      suite.chain.holdFinality(false); // both final now: the account's notification comes
    }
    await suite.h.untilPaid(server, 'both orders are paid', [reported, unreported], 10_000);
    await suite.h.expectCreditedOnce(server, reported.reference, reported.amount);
    await suite.h.expectCreditedOnce(server, unreported.reference, unreported.amount);
  }, 60_000);

  it('a transaction that cannot be read holds back only what comes after it on its account', async () => {
    const { server, logs } = await suite.h.scanner({ SCAN_POLL_SECONDS: '600', SCAN_BACKSTOP_TARGETS: '1' });
    const { m, wallet } = await suite.h.newShop(server);
    const create = async (amount: string) =>
      (
        await server.api('POST', '/orders', {
          token: m.token,
          body: { network: 'SOLANA', token: 'USDT', amount },
        })
      ).body as { reference: string; amount: string };
    const before = await create('2.5');
    const after = await create('3.5');
    const other = await suite.h.newShop(server);
    const elsewhere = (
      await server.api('POST', '/orders', {
        token: other.m.token,
        body: { network: 'SOLANA', token: 'USDT', amount: '4.5' },
      })
    ).body as { reference: string; amount: string };
    await suite.h.subscribed(2);
    const payer = await suite.chain.newPayer({ mint: suite.usdt, units: 1_000_000_000n });
    const pay = (order: { reference: string; amount: string }) =>
      suite.chain.transfer({
        payer,
        recipientOwner: wallet,
        mint: suite.usdt,
        amountUnits: parseUnits(order.amount, 6),
        reference: new PublicKey(order.reference),
      });
    const stray = () =>
      suite.chain.transfer({ payer, recipientOwner: wallet, mint: suite.usdt, amountUnits: 1_000n });
    const unreadable = new Set<string>();
    suite.chain.setRpcFault((method, params) =>
      method === 'getTransaction' && Array.isArray(params) && unreadable.has(String(params[0]))
        ? { rpcError: { code: -32005, message: 'Node is behind' } }
        : undefined,
    );
    try {
      // The readable payment comes first on the account, then two transactions no read answers,
      // then another payment.
      await pay(before);
      unreadable.add(await stray());
      unreadable.add(await stray());
      await pay(after);
      // Another wallet's payment is read all the same.
      await payUntagged(payer, other.wallet, elsewhere.amount);
      await suite.h.untilPaid(
        server,
        "the payment before them, and the other wallet's, are credited",
        [before, elsewhere],
        20_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 2000));
      // The one after them waits: the cursor may not pass what it could not read.
      expect((await suite.h.statusOf(server, after.reference)).status).toBe('PENDING');
    } finally {
      suite.chain.setRpcFault(null);
    }
    unreadable.clear();
    await suite.h.untilPaid(server, 'the payment after them is credited once they are read', [after], 20_000);
    await suite.h.expectCreditedOnce(server, before.reference, before.amount);
    await suite.h.expectCreditedOnce(server, after.reference, after.amount);
    expect(logs.filter((l) => l.msg === 'job failed')).toEqual([]);
  }, 90_000);
});
