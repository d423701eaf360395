import { PublicKey, type Keypair } from '@solana/web3.js';
import type { Order } from '../contract';
import { parseUnits } from '../contract/decimal';
import { addWallet, closeOpenOrders, countOpen, countPaid, createOrders, insertOrders } from './fixtures';
import { progress } from './lib/progress';
import { callsByMethod, timed, type Report } from './measure';
import { SIZES } from './settings';
import type { Ctx, Wallet } from './stack';

type ScanRun = { ctx: Ctx; report: Report; wallet: Wallet; payer: Keypair };

/** A Solana scan cycle that finds one unreported payment, with 10 and with 1,000 open orders. */
export async function benchScan(ctx: Ctx, report: Report): Promise<void> {
  progress('scan-payments with 10 and 1,000 open orders');
  // Only the scan wallet is watched: the open orders of the steps before are closed (past their
  // late-payment window), so each cycle reads one address.
  await closeOpenOrders(ctx);
  const wallet = await addWallet(ctx, 'scan');
  const orders = await createOrders(ctx, SIZES.scanSmall, wallet);
  await ctx.chain.mintTo(wallet.owner, ctx.mint, 0n); // its token account exists, with a history
  const payer = await ctx.chain.newPayer({ mint: ctx.mint, units: 1_000_000_000n });
  const run: ScanRun = { ctx, report, wallet, payer };

  await measuredScan(run, orders[0], true);
  const [template] = orders;
  if (!template) throw new Error('no scan order');
  await insertOrders(ctx, {
    template: template.reference,
    count: SIZES.scanLarge - (await countOpen(ctx, wallet.owner)),
    status: 'PENDING',
    baseUnits: 500_000_000n,
  });
  await measuredScan(run, orders[1], true);
  await measuredScan(run, orders[2], false);
}

/** One new payment nobody reports, then one scan cycle, timed, with its RPC calls. */
async function measuredScan(run: ScanRun, order: Order | undefined, withReference: boolean): Promise<void> {
  const { ctx, wallet } = run;
  if (!order) throw new Error('no order to pay');
  await ctx.server.jobs.runNow('scan-payments'); // every watched address has an up-to-date cursor
  const open = await countOpen(ctx, wallet.owner);
  await ctx.chain.transfer({
    payer: run.payer,
    recipientOwner: wallet.owner,
    mint: ctx.mint,
    amountUnits: parseUnits(order.amount, 6),
    reference: withReference ? new PublicKey(order.reference) : undefined,
  });
  ctx.chain.resetRpcCalls();
  const { value: found, ms } = await timed(() => ctx.server.jobs.runNow('scan-payments'));
  const calls = { ...ctx.chain.rpcCalls };
  const paid = await countPaid(ctx, [order.reference]);
  if (found !== 1 || paid !== 1)
    throw new Error(`scan-payments found ${found} payment(s); the order is ${paid ? '' : 'not '}PAID`);
  const how = withReference ? 'by reference' : 'by amount, no reference';
  run.report.rows.push({ name: `scan-payments, ${open} open orders, ${how}`, count: 1, totalMs: ms });
  run.report.notes.push(`scan, ${open} open orders (${how}): RPC calls ${callsByMethod(calls)}`);
}
