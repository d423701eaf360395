import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sqlCount } from '../fixtures';
import { progress, seconds } from '../lib/progress';
import { callsByMethod, totalCalls } from '../measure';
import { EVM_NETWORK } from '../settings';
import type { Ctx, EvmCtx } from '../stack';
import type { BlockTicker } from './block-ticker';
import { watchedWallets } from './shops';

/** RPC calls by method, counted at a local chain. */
export type Calls = Record<string, number>;
/**
 * One idle case: calls counted at each chain over `seconds` of wall time, EVM blocks mined
 * meanwhile, and the share of that time this process's event loop was busy (the service's jobs
 * and the local Solana chain run in it; idle, the chain answers a few calls a minute): the CPU
 * watching costs, which may grow with the wallets where the calls do not.
 */
export type IdleCase = {
  wallets: number;
  seconds: number;
  solana: Calls;
  evm: Calls;
  blocks: number;
  loopBusy: number;
};

/** Warm-up is over once a window this long saw no reads beyond the backstop's. */
const QUIET_MS = 3000;
const WARM_UP_TIMEOUT_MS = 5 * 60_000;

/** Calls a minute, from a count over `seconds`. */
export const perMinute = (calls: Calls, secs: number) => (totalCalls(calls) * 60) / secs;

/**
 * Idle RPC calls with `wallets` watched on each network: after the warm-up (subscriptions and
 * first reads), both chains' counters over the same `secs` of wall time, the service's jobs on
 * their schedules and the EVM chain mining its blocks, no payment made.
 */
export async function measureIdle(
  ctx: Ctx,
  evm: EvmCtx,
  ticker: BlockTicker,
  opts: { wallets: number; newWallets: number; subscribedBefore: number; secs: number },
): Promise<IdleCase> {
  const watched = await watchedWallets(ctx);
  if (watched.SOLANA !== opts.wallets || watched[EVM_NETWORK] !== opts.wallets)
    throw new Error(`watched wallets ${JSON.stringify(watched)}, not ${opts.wallets} per network`);
  progress(`detection: ${opts.wallets} watched wallets a network, warming up`);
  const warmUp = await warmedUp(ctx, evm, opts);
  progress(`detection: warm-up took ${seconds(warmUp)}; counting idle calls for ${opts.secs} s`);
  ctx.chain.resetRpcCalls();
  evm.chain.resetRpcCalls();
  const blocksBefore = ticker.mined;
  const loopBefore = performance.eventLoopUtilization();
  await sleep(opts.secs * 1000);
  const idle: IdleCase = {
    wallets: opts.wallets,
    seconds: opts.secs,
    solana: { ...ctx.chain.rpcCalls },
    evm: { ...evm.chain.rpcCalls },
    blocks: ticker.mined - blocksBefore,
    loopBusy: performance.eventLoopUtilization(loopBefore).utilization,
  };
  for (const [network, calls] of [
    ['SOLANA', idle.solana],
    [EVM_NETWORK, idle.evm],
  ] as const)
    progress(
      `detection: ${network} idle, ${opts.wallets} wallets: ${perMinute(calls, opts.secs).toFixed(0)} calls a minute (${callsByMethod(calls)} in ${opts.secs} s)`,
    );
  return idle;
}

/**
 * Account subscriptions the Solana chain was asked for since its counters were last reset: taken
 * before the watched wallets change (the service may subscribe the new ones within a second).
 */
export const subscriptions = (ctx: Ctx) => ctx.chain.rpcCalls.accountSubscribe ?? 0;

/**
 * Waits until the service watches every wallet as it will from then on: each new Solana token
 * account subscribed, every one read once, and a window of QUIET_MS with no more reads than the
 * backstop makes (the sweep after subscribing is over); the EVM cursor set and no block search
 * running. Returns how long it took.
 */
export async function warmedUp(
  ctx: Ctx,
  evm: EvmCtx,
  opts: { wallets: number; newWallets: number; subscribedBefore: number },
): Promise<number> {
  const started = Date.now();
  const backstop = ctx.server.deps.config.SCAN_BACKSTOP_TARGETS;
  const reads = () => ({
    solana: (ctx.chain.rpcCalls.getSignaturesForAddress ?? 0) + (ctx.chain.rpcCalls.getTransaction ?? 0),
    evm: evm.chain.rpcCalls.eth_getBlockByNumber ?? 0,
  });
  let before = reads();
  for (;;) {
    await sleep(QUIET_MS);
    const after = reads();
    const quiet = after.solana - before.solana <= backstop && after.evm === before.evm;
    const subscribed = subscriptions(ctx) - opts.subscribedBefore >= opts.newWallets;
    if (quiet && subscribed && (await cursorsRead(ctx, opts.wallets))) return Date.now() - started;
    if (Date.now() - started > WARM_UP_TIMEOUT_MS)
      throw new Error(`detection: not warmed up in ${seconds(WARM_UP_TIMEOUT_MS)} (${opts.wallets} wallets)`);
    before = after;
  }
}

/** Every watched Solana token account read at least once, and the EVM token's cursor. */
async function cursorsRead(ctx: Ctx, wallets: number): Promise<boolean> {
  const read = (network: string) =>
    sqlCount(
      ctx,
      `SELECT count(*)::int AS n FROM scan_cursors WHERE network = :network AND scanned_at IS NOT NULL`,
      { network },
    );
  return (await read('SOLANA')) >= wallets && (await read(EVM_NETWORK)) >= 1;
}
