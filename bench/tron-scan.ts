import { QueryTypes } from 'sequelize';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { z } from 'zod';
import type { Order, ZWallet } from '../contract';
import { base58Of, type LocalTron } from '../sandbox/chains/tron';
import { insertWalletOrders } from '../test/support/harness';
import { progress } from './lib/progress';
import { callsByMethod, timed, totalCalls, versus, type Report } from './measure';
import type { Ctx } from './stack';

/** Watched TRON wallets measured, one open order each. */
const TRON_WALLETS = [1, 10, 100, 1000] as const;
/** Idle cycles counted per step; each after the blocks of a backstop period (10 s of 3 s blocks). */
const CYCLES = 6;
const BLOCKS_PER_CYCLE = 4;
/** Blocks mined before a step's first counted cycle: past the solidified lag, so the cursor has caught up. */
const CATCH_UP_BLOCKS = 40;

/**
 * TRON's idle scanning cost against the number of watched wallets: RPC calls (JSON-RPC methods and
 * HTTP API paths, as the local chain's gateway counts them) per scan cycle with 1, 10, 100 and
 * 1,000 TRON wallets, one open order each, no payment, each cycle after 4 new blocks.
 */
export async function benchTronScan(ctx: Ctx, report: Report): Promise<void> {
  const tron = ctx.tron;
  if (!tron) throw new Error('the tron-scan part needs the local TRON chain');
  progress(`TRON idle scan cycles with ${TRON_WALLETS.join(', ')} watched wallets`);
  const template = await firstTronOrder(ctx);
  const perCycle: number[] = [];
  let watched = 1;
  for (const wallets of TRON_WALLETS) {
    const recipients = Array.from({ length: wallets - watched }, freshTronAddress);
    await insertWalletOrders(ctx.server.deps.db.sequelize, template.reference, recipients);
    watched = wallets;
    const open = await openTronWallets(ctx);
    if (open !== wallets) throw new Error(`${open} watched TRON wallets, not ${wallets}`);
    const { calls, ms } = await idleCycles(ctx, tron);
    perCycle.push(totalCalls(calls) / CYCLES);
    const text =
      `TRON idle scan, ${wallets} watched wallet${wallets === 1 ? '' : 's'} (${CYCLES} cycles of ` +
      `${BLOCKS_PER_CYCLE} new blocks, no payment): RPC calls per cycle ${totalCalls(calls) / CYCLES} ` +
      `(${CYCLES} cycles: ${callsByMethod(calls)})`;
    report.rows.push({ name: `TRON idle scan cycle, ${wallets} wallets`, count: CYCLES, totalMs: ms });
    report.notes.push(text);
    progress(text);
  }
  report.notes.push(
    `TRON idle RPC calls per scan cycle, ${TRON_WALLETS.at(-1)} vs 1 watched wallets: ` +
      versus(perCycle[0] ?? 0, perCycle.at(-1) ?? 0),
  );
}

const freshTronAddress = () => base58Of(privateKeyToAccount(generatePrivateKey()).address);

/** A TRON wallet through the API and one open USDT order to it: the template of the inserted ones. */
async function firstTronOrder(ctx: Ctx): Promise<Order> {
  const wallet = await ctx.api.json<z.infer<typeof ZWallet>>('POST', '/users/me/wallets', {
    token: ctx.token,
    body: { network: 'TRON', public_address: freshTronAddress(), name: 'tron idle' },
    expect: 201,
  });
  return ctx.api.json<Order>('POST', '/orders', {
    token: ctx.token,
    body: { network: 'TRON', token: 'USDT', amount: ctx.nextAmount(), merchantWalletId: wallet.wallet_id },
    expect: 201,
  });
}

/** The step's cycles after the cursor caught up; the gateway's calls and the cycles' time summed over them. */
async function idleCycles(ctx: Ctx, tron: LocalTron): Promise<{ calls: Record<string, number>; ms: number }> {
  await tron.mine(CATCH_UP_BLOCKS);
  await ctx.server.jobs.runNow('scan-payments');
  const calls: Record<string, number> = {};
  let ms = 0;
  for (let i = 0; i < CYCLES; i++) {
    await tron.mine(BLOCKS_PER_CYCLE);
    tron.resetCalls();
    const cycle = await timed(() => ctx.server.jobs.runNow('scan-payments'));
    if (cycle.value !== 0) throw new Error(`an idle TRON scan cycle found ${cycle.value} payment(s)`);
    ms += cycle.ms;
    for (const [method, n] of Object.entries(tron.calls)) calls[method] = (calls[method] ?? 0) + n;
  }
  return { calls, ms };
}

/** Distinct recipients of open TRON orders: the watched wallets. */
async function openTronWallets(ctx: Ctx): Promise<number> {
  const [row] = await ctx.server.deps.db.sequelize.query<{ wallets: number }>(
    `SELECT count(DISTINCT recipient)::int AS wallets FROM orders
      WHERE network = 'TRON' AND status IN ('PENDING', 'CONFIRMING', 'UNDERPAID')`,
    { type: QueryTypes.SELECT },
  );
  return row?.wallets ?? 0;
}
