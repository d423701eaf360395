import { QueryTypes } from 'sequelize';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Order } from '../contract';
import { parseUnits } from '../contract/decimal';
import { insertWalletOrders as insertOrdersToWallets, type LocalWallet } from '../test/support/harness';
import { evmTag, requireEvm } from './evm';
import { addEvmWallet, countOpen, countPaid, createOrders, insertOrders } from './fixtures';
import { RESCAN_BLOCKS } from '../server/chains/evm/scan-transfers';
import { progress } from './lib/progress';
import { callsByMethod, timed, totalCalls, versus, type Report } from './measure';
import { EVM_CONFIRMATIONS, EVM_NETWORK, SIZES } from './settings';
import type { Ctx, EvmCtx, EvmWallet } from './stack';

type EvmScanRun = { ctx: Ctx; evm: EvmCtx; report: Report; payer: LocalWallet; walletsAdded: number };
/** A payment nobody reports: tagged with its order, or only of its exact amount. */
type Payment = { order: Order | undefined; tagged: boolean };
/** RPC calls of a cycle with no new payment, and of one with a tagged payment. */
type IdleAndPaid = { idle: number; paid: number };

/**
 * EVM scan cycles and their RPC calls: one wallet with a few and with 10,000 open orders, then
 * 100 and 250 watched wallets.
 */
export async function benchEvmScan(ctx: Ctx, report: Report): Promise<void> {
  const evm = requireEvm(ctx);
  const { evmScanSmall, evmScanLarge, evmWallets, evmWalletsMore } = SIZES;
  progress(
    `${EVM_NETWORK} scan-payments with ${evmScanSmall} and ${evmScanLarge.toLocaleString('en')} open orders, ` +
      `1, ${evmWallets} and ${evmWalletsMore} watched wallets`,
  );
  await closeOpenOrders(ctx);
  const payer = await evm.chain.newWallet({ token: evm.usdt, units: 1_000_000_000_000n });
  const run: EvmScanRun = { ctx, evm, report, payer, walletsAdded: 0 };
  await idleMinutes(run);

  const { wallet, orders } = await firstCycle(run);
  const small = await idleAndPaid(run, orders[0]);
  const large = await scanManyOrders(run, wallet, orders);
  report.notes.push(
    `${EVM_NETWORK} scan RPC calls per cycle, ${evmScanLarge.toLocaleString('en')} vs ${evmScanSmall} open orders on one wallet: ` +
      `no new payment ${versus(small.idle, large.idle)}, one payment by tag ${versus(small.paid, large.paid)}`,
  );
  await scanManyWallets(run, small);
}

const scan = (ctx: Ctx) => ctx.server.jobs.runNow('scan-payments');

/**
 * Orders inserted or closed per statement: 10,000 at once (with the orders' triggers) outlast the
 * 5 s statement timeout on a busy machine.
 */
const ROWS_PER_STATEMENT = 2000;

/** Closes every open order (expired, past its late-payment window), a bounded number per statement. */
async function closeOpenOrders(ctx: Ctx): Promise<void> {
  for (;;) {
    const [row] = await ctx.server.deps.db.sequelize.query<{ n: number }>(
      `WITH closed AS (
         UPDATE orders SET status = 'EXPIRED', expires_at = now() - interval '30 days', updated_at = now()
          WHERE id IN (SELECT id FROM orders WHERE status IN ('PENDING', 'CONFIRMING', 'UNDERPAID') LIMIT :limit)
         RETURNING 1)
       SELECT count(*)::int AS n FROM closed`,
      { type: QueryTypes.SELECT, replacements: { limit: ROWS_PER_STATEMENT } },
    );
    if ((row?.n ?? 0) === 0) return;
  }
}

/** One wallet with a few open orders; its first cycle starts the token's cursor. */
async function firstCycle(run: EvmScanRun): Promise<{ wallet: EvmWallet; orders: Order[] }> {
  const { ctx, evm } = run;
  const wallet = await addEvmWallet(ctx, 'evm scan');
  const orders = await createOrders(ctx, SIZES.evmScanSmall, wallet);
  evm.chain.resetRpcCalls();
  await scan(ctx);
  const head = await evm.chain.blockNumber();
  run.report.notes.push(
    `${EVM_NETWORK} scan, the first cycle of a new cursor (a binary search on block times for the ` +
      `oldest watched order, chain of ${head} blocks): RPC calls ${callsByMethod(evm.chain.rpcCalls)}; ` +
      `later cycles read from the cursor, eth_getLogs ranges of ${ctx.server.deps.config.EVM_LOG_RANGE} blocks`,
  );
  return { wallet, orders };
}

const idleAndPaid = async (run: EvmScanRun, toPay: Order | undefined): Promise<IdleAndPaid> => ({
  idle: await measuredScan(run),
  paid: await measuredScan(run, { order: toPay, tagged: true }),
});

/** The same wallet with 10,000 open orders: a cycle idle, with a tagged and with an untagged payment. */
async function scanManyOrders(run: EvmScanRun, wallet: EvmWallet, orders: Order[]): Promise<IdleAndPaid> {
  const [template] = orders;
  if (!template) throw new Error('no scan order');
  const count = SIZES.evmScanLarge - (await countOpen(run.ctx, wallet.address));
  for (let done = 0; done < count; done += ROWS_PER_STATEMENT)
    await insertOrders(run.ctx, {
      template: template.reference,
      count: Math.min(ROWS_PER_STATEMENT, count - done),
      status: 'PENDING',
      baseUnits: 500_000_000n + BigInt(done),
    });
  const large = await idleAndPaid(run, orders[1]);
  await measuredScan(run, { order: orders[2], tagged: false });
  return large;
}

/** 100 watched wallets, as many open orders each as the one wallet before had; then 250. */
async function scanManyWallets(run: EvmScanRun, small: IdleAndPaid): Promise<void> {
  const { evmScanSmall, evmWallets, evmWalletsMore } = SIZES;
  await closeOpenOrders(run.ctx);
  const many = await idleAndPaid(run, await openWallets(run, evmWallets, evmScanSmall));
  const most = await idleAndPaid(run, await openWallets(run, evmWalletsMore - evmWallets, evmScanSmall));
  run.report.notes.push(
    `${EVM_NETWORK} scan RPC calls per cycle, ${evmWallets} vs 1 watched wallets (${evmScanSmall} open orders each): ` +
      `no new payment ${versus(small.idle, many.idle)}, one payment by tag ${versus(small.paid, many.paid)}; ` +
      `${evmWalletsMore} wallets: ${most.idle} and ${most.paid}`,
  );
}

/**
 * `count` more watched wallets, each with `perWallet` open orders: one through the API on a new
 * wallet (a merchant has at most 100), the others' orders inserted to fresh addresses like it.
 * Returns the API-made order, to pay.
 */
async function openWallets(run: EvmScanRun, count: number, perWallet: number): Promise<Order | undefined> {
  const [made] = await createOrders(
    run.ctx,
    1,
    await addEvmWallet(run.ctx, `evm scan ${++run.walletsAdded}`),
  );
  if (!made) throw new Error('no order was created');
  const references = [made.reference, ...(await insertWalletOrders(run.ctx, made.reference, count - 1))];
  await insertOrders(run.ctx, {
    template: references,
    count: perWallet - 1,
    status: 'PENDING',
    baseUnits: 600_000_000n + BigInt(run.walletsAdded) * 1_000_000n,
  });
  return made;
}

/** Orders open on the EVM network, and the wallets they are to. */
async function openOnNetwork(ctx: Ctx): Promise<{ orders: number; wallets: number }> {
  const [row] = await ctx.server.deps.db.sequelize.query<{ orders: number; wallets: number }>(
    `SELECT count(*)::int AS orders, count(DISTINCT recipient)::int AS wallets FROM orders
      WHERE network = :network AND status IN ('PENDING', 'CONFIRMING', 'UNDERPAID')`,
    { type: QueryTypes.SELECT, replacements: { network: EVM_NETWORK } },
  );
  return { orders: row?.orders ?? 0, wallets: row?.wallets ?? 0 };
}

/**
 * One scan cycle after the cursor caught up: with `pay`, one new payment nobody reports, else
 * none; either way the same number of new final blocks to read. Timed, with its RPC calls, which
 * it returns.
 */
async function measuredScan(run: EvmScanRun, pay?: Payment): Promise<number> {
  const { ctx, evm } = run;
  // The cursor is up to date, and earlier payments are behind the blocks each cycle reads again
  // (settled already, they would count as found once more).
  await evm.chain.mine(Number(RESCAN_BLOCKS));
  await scan(ctx);
  const open = await openOnNetwork(ctx);
  await payOrWait(run, pay);
  evm.chain.resetRpcCalls();
  const { value: found, ms } = await timed(() => scan(ctx));
  const calls = { ...evm.chain.rpcCalls };
  const expected = pay ? 1 : 0;
  const paid = pay?.order ? await countPaid(ctx, [pay.order.reference]) : 0;
  if (found !== expected || paid !== expected)
    throw new Error(`scan-payments found ${found} payment(s), not ${expected}; ${paid} order(s) PAID`);
  const how = !pay ? 'no new payment' : pay.tagged ? 'one payment, by tag' : 'one payment, by amount, no tag';
  const where = `${open.orders} open orders, ${open.wallets} wallet${open.wallets === 1 ? '' : 's'}`;
  run.report.rows.push({ name: `${EVM_NETWORK} scan-payments, ${where}, ${how}`, count: 1, totalMs: ms });
  run.report.notes.push(
    `${EVM_NETWORK} scan, ${where} (${how}): RPC calls ${callsByMethod(calls)} (${totalCalls(calls)})`,
  );
  return totalCalls(calls);
}

/** Sends `pay` and mines it final, or mines as many blocks without a payment. */
async function payOrWait(run: EvmScanRun, pay: Payment | undefined): Promise<void> {
  const { evm } = run;
  if (!pay) return evm.chain.mine(EVM_CONFIRMATIONS + 1);
  if (!pay.order) throw new Error('no order to pay');
  await evm.chain.transfer({
    from: run.payer,
    token: evm.usdt,
    to: getAddress(pay.order.recipient),
    units: parseUnits(pay.order.amount, 6),
    dataSuffix: pay.tagged ? evmTag(pay.order.reference) : undefined,
  });
  await evm.chain.mine(EVM_CONFIRMATIONS);
}

/**
 * A minute of Polygon's blocks (~2 s each), read in 6 cycles of 5 new blocks: the calls reading
 * them cost, with 10 and 1,000 wallets. Scans now run every second (a cycle with no new final
 * block costs one eth_blockNumber); the detection part counts a real minute.
 */
const CYCLES_A_MINUTE = 6;
const BLOCKS_PER_CYCLE = 5;
/** Watched wallets of the idle-minute measurement: few, and as many as a busy hosted service has. */
const IDLE_WALLETS = [10, 1000] as const;

/**
 * Idle RPC calls a minute with 10 and with 1,000 watched wallets (one open order each, no payment):
 * a minute's scan cycles, each after a cycle's worth of new blocks, counted by the proxy. First,
 * while no other EVM order is open.
 */
async function idleMinutes(run: EvmScanRun): Promise<void> {
  const { ctx } = run;
  const [template] = await createOrders(ctx, 1, await addEvmWallet(ctx, 'evm idle'));
  if (!template) throw new Error('no idle order');
  const perMinute: number[] = [];
  let watched = 1;
  for (const wallets of IDLE_WALLETS) {
    await insertWalletOrders(ctx, template.reference, wallets - watched);
    watched = wallets;
    const open = await openOnNetwork(ctx);
    if (open.wallets !== wallets) throw new Error(`${open.wallets} watched wallets, not ${wallets}`);
    await run.evm.chain.mine(Number(RESCAN_BLOCKS));
    await scan(ctx); // the cursor is up to date, earlier payments behind the blocks read again
    const calls: Record<string, number> = {};
    for (let i = 0; i < CYCLES_A_MINUTE; i++) {
      await run.evm.chain.mine(BLOCKS_PER_CYCLE);
      run.evm.chain.resetRpcCalls();
      const found = await scan(ctx);
      if (found !== 0) throw new Error(`an idle scan cycle found ${found} payment(s)`);
      for (const [method, n] of Object.entries(run.evm.chain.rpcCalls))
        calls[method] = (calls[method] ?? 0) + n;
    }
    perMinute.push(totalCalls(calls));
    note(
      run,
      `${EVM_NETWORK} idle RPC calls reading 30 blocks, ${wallets} watched wallets (${CYCLES_A_MINUTE} scan cycles of ` +
        `${BLOCKS_PER_CYCLE} new blocks, no payment): ${callsByMethod(calls)} (${totalCalls(calls)})`,
    );
  }
  await closeOpenOrders(ctx); // the later parts open orders of their own
  const [few = 0, many = 0] = perMinute;
  note(
    run,
    `${EVM_NETWORK} idle RPC calls reading 30 blocks, ${IDLE_WALLETS[1]} vs ${IDLE_WALLETS[0]} watched wallets: ${versus(few, many)}`,
  );
}

/** A note of the report, shown as it is measured too. */
function note(run: EvmScanRun, text: string): void {
  run.report.notes.push(text);
  progress(text);
}

/** `count` open orders like `template`, each to a wallet of its own at a fresh address (inserted); their references. */
function insertWalletOrders(ctx: Ctx, template: string, count: number): Promise<string[]> {
  const recipients = Array.from(
    { length: Math.max(count, 0) },
    () => privateKeyToAccount(generatePrivateKey()).address,
  );
  return insertOrdersToWallets(ctx.server.deps.db.sequelize, template, recipients);
}
