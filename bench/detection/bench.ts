import { startWebhookReceiver } from '../../test/support/harness';
import { requireEvm } from '../evm';
import { addEvmWallet, addWallet, closeOpenOrders, createOrder, createOrders } from '../fixtures';
import { loadAverage } from '../lib/machine';
import { once } from '../lib/once';
import { progress } from '../lib/progress';
import type { Report } from '../measure';
import type { DetectionOptions } from '../options';
import type { Ctx, EvmCtx, EvmWallet, Wallet } from '../stack';
import { BLOCK_INTERVAL_MS, startBlockTicker, type BlockTicker } from './block-ticker';
import { measureIdle, subscriptions, warmedUp, type IdleCase } from './idle';
import {
  evmDetection,
  evmPayers,
  solanaDetection,
  solanaPayers,
  type Payments,
  type SampleOrders,
} from './latency';
import { recordDetection } from './record';
import { startWatchingService } from './service';
import { addShops } from './shops';

/** Watched wallets a network in the idle cases: a few shops, and as many as a busy hosted service has. */
export const IDLE_WALLETS = [10, 1000] as const;

/** JOB_SCAN_PAYMENTS_CRON's default period. */
const SCAN_CYCLE_MS = 1000;

type SampleWallets = {
  solana: Record<'reported' | 'unreported', Wallet>;
  evm: Record<'reported' | 'unreported', EvmWallet>;
};

/**
 * What watching costs and how soon a payment is seen, with the service as it runs in production:
 * a server of its own with every job on its default schedule (not run by hand), the EVM chain
 * mining a block every 2 s. First the idle RPC calls a minute with 10 and with 1,000 watched
 * wallets a network, then detection latency (final on chain to order.paid webhook) of reported
 * and unreported payments on each network, while the 1,000 are still watched. The four kinds of
 * payment run side by side, each after a random pause of up to one scan cycle (Solana) or one
 * block (EVM), as a service hosting many shops receives them.
 */
export async function benchDetection(bench: Ctx, report: Report, opts: DetectionOptions): Promise<void> {
  const evm = requireEvm(bench);
  const service = await startWatchingService(bench);
  const stops = [service.stop];
  /** Stopped at the end of the part, or by the cleanup when the run is cut short. */
  const stopLater = (what: string, stop: () => Promise<void>) => {
    const stopOnce = once(stop);
    stops.unshift(stopOnce);
    bench.addCleanup(what, stopOnce);
  };
  try {
    const { ctx } = service;
    const receiver = await startWebhookReceiver();
    stopLater('detection webhook receiver', receiver.stop);
    await ctx.api.json('POST', '/users/me/webhook-secret', { token: ctx.token });
    await ctx.api.json('PATCH', '/users/me', { token: ctx.token, body: { webhook_url: receiver.url } });
    const wallets = await sampleWallets(ctx);
    const payers = { solana: await solanaPayers(ctx, opts.samples), evm: await evmPayers(evm, opts.samples) };
    const ticker = await startBlockTicker(evm.chain);
    stopLater('detection block ticker', ticker.stop);

    const idle = await idleCases(ctx, evm, ticker, opts.idleSeconds, wallets);
    const orders = await sampleOrders(ctx, evm, wallets, opts.samples);
    progress(`detection: ${opts.samples} payments each way and network, final -> order.paid webhook`);
    const run: Payments = { ctx, receiver, samples: opts.samples, jitterMs: SCAN_CYCLE_MS };
    const [solana, onEvm] = await Promise.all([
      solanaDetection(run, payers.solana, orders.solana),
      evmDetection({ ...run, jitterMs: BLOCK_INTERVAL_MS }, evm, ticker, {
        payers: payers.evm,
        orders: orders.evm,
      }),
    ]);
    recordDetection(report, { idle, detections: [...solana, ...onEvm], load: loadAverage() });
  } finally {
    for (const stop of stops) await stop();
  }
}

/** A receiving wallet a network for reported and one for unreported payments; Solana's token accounts exist. */
async function sampleWallets(ctx: Ctx): Promise<SampleWallets> {
  const solana = {
    reported: await addWallet(ctx, 'reported'),
    unreported: await addWallet(ctx, 'unreported'),
  };
  for (const wallet of Object.values(solana)) await ctx.chain.mintTo(wallet.owner, ctx.mint, 0n);
  return {
    solana,
    evm: { reported: await addEvmWallet(ctx, 'reported'), unreported: await addEvmWallet(ctx, 'unreported') },
  };
}

/**
 * The idle cases, shops added from one to the next. Their orders copy two template orders, closed
 * at once: only the shops are watched.
 */
async function idleCases(ctx: Ctx, evm: EvmCtx, ticker: BlockTicker, secs: number, wallets: SampleWallets) {
  const templates = {
    solana: await createOrder(ctx, wallets.solana.reported),
    evm: await createOrder(ctx, wallets.evm.reported),
  };
  await closeOpenOrders(ctx, [templates.solana.reference, templates.evm.reference]);
  const cases: IdleCase[] = [];
  let shops = 0;
  for (const watched of IDLE_WALLETS) {
    const subscribedBefore = subscriptions(ctx);
    await addShops(ctx, templates, watched - shops);
    cases.push(
      await measureIdle(ctx, evm, ticker, {
        wallets: watched,
        newWallets: watched - shops,
        subscribedBefore,
        secs,
      }),
    );
    shops = watched;
  }
  return cases;
}

/**
 * The orders the payments pay, on the sample wallets, once their watch is as settled as the
 * shops' (subscribed and read): a shop's orders are watched before anyone pays.
 */
async function sampleOrders(ctx: Ctx, evm: EvmCtx, wallets: SampleWallets, samples: number) {
  const orders = async <W extends Wallet | EvmWallet>(pair: Record<'reported' | 'unreported', W>) =>
    ({
      reported: await createOrders(ctx, samples, pair.reported),
      unreported: await createOrders(ctx, samples, pair.unreported),
    }) satisfies SampleOrders;
  const subscribedBefore = subscriptions(ctx);
  const sample = { solana: await orders(wallets.solana), evm: await orders(wallets.evm) };
  const watched = IDLE_WALLETS[IDLE_WALLETS.length - 1]! + 2;
  await warmedUp(ctx, evm, { wallets: watched, newWallets: 2, subscribedBefore });
  return sample;
}
