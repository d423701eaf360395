import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { getAddress, toHex, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { randomEvmAddress, type LocalEvm } from '../../sandbox/chains/evm/local-evm';
import { startEvmNetworks } from '../../sandbox/chains/evm/evm-networks';
import { startPaymentHarness, type PaymentHarness, usePaymentStack } from '../support/payment-harness';
import { insertWalletOrders as insertOrders } from '../support/insert-wallet-orders';

/**
 * EVM scanning at scale, on two local Hardhat nodes: POLYGON unlimited, ETHEREUM with a small RPC
 * budget (ETHEREUM_RPC_MAX_RPS). An idle scan cycle costs the same RPC calls with 10 and with 1,000
 * watched wallets, a payment to the last of them is still found, and the budget is never exceeded.
 */

const CONFIRMATIONS = 2;
const BUDGET_RPS = 20;
const NETWORKS = [
  { network: 'POLYGON', chainId: 137, confirmations: CONFIRMATIONS },
  { network: 'ETHEREUM', chainId: 1, confirmations: CONFIRMATIONS },
] as const;

let networks: Awaited<ReturnType<typeof startEvmNetworks<(typeof NETWORKS)[number]['network']>>>;
let chains: typeof networks.chains;
let h: PaymentHarness;

usePaymentStack(
  async () => {
    networks = await startEvmNetworks(NETWORKS);
    chains = networks.chains;
    h = await startPaymentHarness({ ...networks.env, ETHEREUM_RPC_MAX_RPS: String(BUDGET_RPS) });
  },
  () => [h, networks],
);

const freshAddress = randomEvmAddress;
const scan = () => h.server.jobs.runNow('scan-payments');

/** Open orders like `template`, each to a wallet of its own at a fresh address (inserted); their recipients. */
async function insertWalletOrders(template: string, count: number): Promise<Address[]> {
  const recipients = Array.from({ length: count }, freshAddress);
  await insertOrders(h.server.deps.db.sequelize, template, recipients);
  return recipients;
}

const watchedWallets = async (network: string) => {
  const [row] = await h.server.deps.db.sequelize.query<{ n: number }>(
    `SELECT count(DISTINCT recipient)::int AS n FROM orders
      WHERE network = :network AND status IN ('PENDING', 'CONFIRMING', 'UNDERPAID')`,
    { type: QueryTypes.SELECT, replacements: { network } },
  );
  return row?.n ?? 0;
};

/** The RPC calls, by method, of one scan cycle after `blocks` new blocks with no payment. */
async function idleCycle(evm: LocalEvm, blocks = 5): Promise<Record<string, number>> {
  await evm.mine(20); // earlier payments behind the blocks each cycle reads again
  await scan(); // the cursor is up to date
  await evm.mine(blocks);
  evm.resetRpcCalls();
  expect(await scan()).toBe(0);
  return { ...evm.rpcCalls };
}

describe('EVM scanning with many watched wallets', () => {
  it('an idle cycle costs the same RPC calls with 10 and 1,000 wallets; a payment to the 1,000th is found', async () => {
    const { evm, usdt } = chains.POLYGON;
    const shop = await h.newShop('POLYGON', freshAddress());
    const template = await h.createOrder(shop, { amount: '7' });
    await insertWalletOrders(template.reference, 9);
    expect(await watchedWallets('POLYGON')).toBe(10);
    const few = await idleCycle(evm);

    const more = await insertWalletOrders(template.reference, 990);
    expect(await watchedWallets('POLYGON')).toBe(1000);
    const many = await idleCycle(evm);
    expect(many).toEqual(few);
    expect(many.eth_getLogs).toBe(1);

    // A plain transfer of the exact amount to the last wallet, which nobody reports.
    const last = more.at(-1)!;
    const [row] = await h.server.deps.db.sequelize.query<{ reference: string }>(
      `SELECT reference FROM orders WHERE recipient = :last`,
      { type: QueryTypes.SELECT, replacements: { last } },
    );
    const reference = row!.reference;
    const from = await evm.newWallet({ token: usdt, units: 100_000_000n });
    const txId = await evm.transfer({ from, token: usdt, to: last, units: 7_000_000n });
    await evm.mine(CONFIRMATIONS);
    const paid = await h.settle(shop, reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '7.000000', txId, recipient: last });
    // Another wallet with the same amount due is left alone.
    expect((await h.getOrder(shop, template.reference)).status).toBe('PENDING');
  }, 60_000);

  it('found where the provider caps eth_getLogs results: ranges halved, a crowded block read by recipient', async () => {
    const { evm, usdt } = chains.POLYGON;
    const shop = await h.newShop('POLYGON', freshAddress());
    const order = await h.createOrder(shop, { amount: '9' });
    expect(await watchedWallets('POLYGON')).toBeGreaterThan(100); // the query names no recipient
    await scan();
    const senders = await Promise.all(
      Array.from({ length: 4 }, () => evm.newWallet({ token: usdt, units: 100_000_000n })),
    );
    evm.limitLogs(2);
    try {
      // Transfers to nobody watched, a block each: more than two in a range, none in a block.
      for (const from of senders.slice(0, 3))
        await evm.transfer({ from, token: usdt, to: freshAddress(), units: 1_000_000n });
      // Then one block with three of them and the payment: four logs, beyond the cap even alone.
      await evm.setAutomine(false);
      for (const from of senders.slice(0, 3))
        await evm.transfer({ from, token: usdt, to: freshAddress(), units: 1_000_000n });
      const txId = await evm.transfer({
        from: senders[3]!,
        token: usdt,
        to: getAddress(shop.wallet),
        units: 9_000_000n,
      });
      await evm.mine(1);
      await evm.setAutomine(true);
      await evm.mine(CONFIRMATIONS);
      evm.resetRpcCalls();
      const paid = await h.settle(shop, order.reference, 'PAID');
      expect(paid).toMatchObject({ amountReceived: '9.000000', txId });
      expect(evm.rpcCalls.eth_getLogs).toBeGreaterThan(2); // refused, halved, then by recipient
    } finally {
      await evm.setAutomine(true);
      evm.limitLogs(null);
    }
  }, 60_000);

  it(`never sends more than ETHEREUM_RPC_MAX_RPS (${BUDGET_RPS}) calls a second, under 1,000 wallets and a burst; none is dropped`, async () => {
    const { evm } = chains.ETHEREUM;
    const shop = await h.newShop('ETHEREUM', freshAddress());
    const template = await h.createOrder(shop, { amount: '3' });
    await insertWalletOrders(template.reference, 999);
    expect(await watchedWallets('ETHEREUM')).toBe(1000);
    await scan();
    await evm.mine(5);

    const chain = h.server.deps.chains.get('ETHEREUM');
    evm.resetRpcCalls();
    const total = () => Object.values(evm.rpcCalls).reduce((a, b) => a + b, 0);
    const samples: { at: number; calls: number }[] = [];
    const sampler = setInterval(() => samples.push({ at: performance.now(), calls: total() }), 20);
    // Scan cycles and 40 lookups at once: about 50 calls, more than two seconds' budget.
    const lookups = Array.from({ length: 40 }, () => chain.readTransaction(toHex(randomBytes(32))));
    const [results] = await Promise.all([Promise.all(lookups), scan(), scan()]);
    clearInterval(sampler);
    samples.push({ at: performance.now(), calls: total() });

    expect(results.every((r) => r.state === 'not_found')).toBe(true);
    const sent = total();
    expect(sent).toBeGreaterThanOrEqual(40);
    // In every window of a second or more between two samples, at most the budget's calls: one
    // more for the slot at the window's start, two for the calls' way to the proxy. Calls the
    // service released on time while this process stalled (a loaded machine: the sampler's longest
    // gap beyond its 20 ms) reach the proxy together when it resumes: the budget of that stall too.
    const stall = Math.max(0, ...samples.slice(1).map((s, k) => (s.at - samples[k]!.at - 20) / 1000));
    for (let i = 0; i < samples.length; i++)
      for (let j = i + 1; j < samples.length; j++) {
        const seconds = (samples[j]!.at - samples[i]!.at) / 1000;
        if (seconds < 1) continue;
        expect(samples[j]!.calls - samples[i]!.calls).toBeLessThanOrEqual(BUDGET_RPS * (seconds + stall) + 3);
      }
    // And over the whole burst, which without the budget takes a fraction of a second.
    const seconds = (samples.at(-1)!.at - samples[0]!.at) / 1000;
    expect(seconds).toBeGreaterThanOrEqual((sent - 1) / BUDGET_RPS - 0.1);
  }, 60_000);
});
