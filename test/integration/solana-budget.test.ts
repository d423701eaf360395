import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { useSolanaWatchSuite } from '../support/solana-watch-harness';
import { until } from '../support/until';

/**
 * The RPC budget (SOLANA_RPC_MAX_RPS) under 1,000 watched Solana wallets: subscriptions and the
 * sweep after them wait their turn like every call. With the slow suites: about 45 s at 50 calls a
 * second (a smaller budget leaves room for the event loop's stalls on a loaded machine).
 */

const suite = useSolanaWatchSuite();

describe('Solana account notifications under an RPC budget', () => {
  it('never sends more than SOLANA_RPC_MAX_RPS calls a second under 1,000 watched wallets, subscriptions included; none starved', async () => {
    const budget = 50;
    const { server } = await suite.h.scanner({
      SOLANA_RPC_MAX_RPS: String(budget),
      SCAN_POLL_SECONDS: '600',
    });
    const [first] = await suite.h.openOrders(server, 1);
    const owners = await suite.h.insertWalletOrders(server, first!.reference, 999);
    const total = () => Object.values(suite.chain.rpcCalls).reduce((a, b) => a + b, 0);
    const samples: { at: number; calls: number }[] = [];
    const sampler = setInterval(() => samples.push({ at: performance.now(), calls: total() }), 20);
    try {
      // Every account subscribed, then every account read once (the sweep after subscribing).
      await until('1,000 subscriptions', () => (suite.chain.rpcCalls.accountSubscribe ?? 0) >= 1000, 60_000);
      await until(
        '1,000 accounts read',
        () => (suite.chain.rpcCalls.getSignaturesForAddress ?? 0) >= 1000,
        60_000,
      );
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
    const payer = await suite.chain.newPayer({ mint: suite.usdt, units: 100_000_000_000n });
    await suite.chain.transfer({
      payer,
      recipientOwner: last,
      mint: suite.usdt,
      amountUnits: BigInt(row!.amount_units),
    });
    await suite.h.untilPaid(server, "the last wallet's order is paid", [row!], 60_000);
  }, 180_000);
});
