import { randomUUID } from 'node:crypto';
import type { ChainAdapter, ChainWatch } from '../chains/chain-adapter';
import { ChainUnavailableError } from '../chains/chain-errors';
import type { Deps } from '../deps';
import { releaseLease } from '../db/lease';
import { chooseScanTargets } from './choose-scan-targets';
import { cursorKey, leaseCursors, LeaseLost, type Scan } from './lease-scan-cursors';
import { listWatchedRecipients } from './list-watched-recipients';
import { scanTarget } from './scan-target';

/** How far before its oldest watched order a never-scanned (or long idle) target is read back. */
const FIRST_SCAN_LOOKBACK_MS = 5 * 60_000;
/** Transactions settled per target and cycle; a larger backlog continues next cycle, in order. */
const MAX_TRANSACTIONS_PER_TARGET = 5000;

/**
 * One scan cycle: for each scan target (a group of watched recipients sharing a cursor) read what
 * is new since its cursor and settle it. RPC calls grow with the number of targets and of new
 * transactions, never with the number of open orders. A cursor only moves past what was settled.
 */
export async function scanPayments(
  deps: Deps,
  opts: {
    owner?: string;
    maxPerAddress?: number;
    network?: string;
    /** The network's watch (with `network`): only what it reports, and the backstop, is read. */
    watch?: ChainWatch;
    /**
     * With a watch, whether this cycle also does the slow reads: the backstop (SCAN_BACKSTOP_TARGETS
     * read longest ago) while notice flows, every target while it does not. Without, it reads
     * nothing the watch did not report.
     */
    slowRead?: boolean;
  } = {},
): Promise<number> {
  const owner = opts.owner ?? `scan-${randomUUID()}`;
  // Networks side by side (the job runs one lane per network): one whose RPC hangs, each call
  // waiting out its timeout, never holds up the others' payments.
  const chains = deps.chains.all().filter((c) => opts.network === undefined || c.network === opts.network);
  const found = await Promise.all(chains.map((chain) => scanNetwork(deps, chain, owner, opts)));
  return found.reduce((a, b) => a + b, 0);
}

async function scanNetwork(
  deps: Deps,
  chain: ChainAdapter,
  owner: string,
  opts: { maxPerAddress?: number; network?: string; watch?: ChainWatch; slowRead?: boolean },
): Promise<number> {
  let found = 0;
  // Once per token (again while the chain cannot be reached): configured decimals against the chain's.
  await chain.verifyTokens();
  const scan: Scan = { network: chain.network, owner, leaseSeconds: deps.config.JOB_LEASE_SECONDS };
  const watched = await listWatchedRecipients(deps, chain);
  const watch = opts.network === chain.network ? opts.watch : undefined;
  if (watched.length === 0) {
    watch?.follow([]);
    return 0;
  }
  const targets = new Map(chain.scanTargets(watched).map((t) => [t.key, t]));
  const owners = new Map(watched.map((w) => [w.recipient, w.merchantId]));
  const sinceOf = new Map(watched.map((w) => [`${w.recipient}|${w.token}`, w.since.getTime()]));
  const keys = [...targets.keys()];
  const toRead = watch
    ? await chooseScanTargets(deps, chain.network, keys, watch, opts.slowRead ?? false)
    : { chosen: keys, active: [] };
  if (toRead.chosen.length === 0) return 0;
  const leased = await leaseCursors(deps, scan, toRead.chosen);
  // Activity on a target another worker holds: that worker may have read it just before the
  // transaction landed, so it is read again next cycle.
  const got = new Set(leased.map((row) => row.address));
  watch?.remind(toRead.active.filter((key) => !got.has(key)));
  let unreachable = false;
  for (const row of leased) {
    const target = targets.get(row.address)!;
    let oldest = Infinity;
    for (const recipient of target.recipients)
      oldest = Math.min(oldest, sinceOf.get(`${recipient}|${target.token}`) ?? Infinity);
    const since = new Date(oldest - FIRST_SCAN_LOOKBACK_MS);
    // A cursor last moved before anything now watched existed covers nothing that can pay:
    // start again from the oldest watched order instead of reading the idle time in between.
    const fresh = row.cursor !== null && row.scanned_at !== null && new Date(row.scanned_at) >= since;
    let next = fresh ? row.cursor : null;
    let advanced = false;
    // The network did not answer for an earlier target: the rest waits for the next cycle (not
    // for its next notification or backstop turn).
    if (unreachable) watch?.remind([target.key]);
    else
      try {
        const result = await scanTarget(
          deps,
          scan,
          chain,
          target,
          next,
          since,
          opts.maxPerAddress ?? MAX_TRANSACTIONS_PER_TARGET,
          owners,
        );
        next = result.cursor;
        found += result.settled;
        advanced = true;
        // Stopped before a transaction it cannot judge yet (not final, or reported and being
        // checked) or at its page's end: read again next cycle, not at the next notification or
        // backstop turn.
        if (result.stopped) watch?.remind([target.key]);
      } catch (error) {
        if (error instanceof LeaseLost) {
          deps.logger.warn(
            { network: chain.network, target: target.key },
            'scan lease lost to another worker',
          );
          continue; // the new holder owns the cursor now: write nothing
        }
        if (!(error instanceof ChainUnavailableError)) throw error;
        unreachable = true;
        watch?.remind([target.key]);
        deps.logger.warn(
          { network: chain.network, target: target.key, err: error.message },
          'payment scan postponed',
        );
      }
    // Only while this worker still holds the lease: a worker that lost it (it stalled) must not
    // set the cursor over the one the new holder moved.
    const released = await releaseLease(deps, {
      ...cursorKey(scan, row.address),
      set: advanced ? { cursor: next, scanned_at: deps.clock() } : undefined,
    });
    // Lost after its last transaction: what it settled stands (each once), its cursor is not written.
    if (!released && advanced)
      deps.logger.warn({ network: chain.network, target: target.key }, 'scan lease lost to another worker');
  }
  return found;
}
