import type { ChainAdapter, ScanTarget } from '../chains/chain-adapter';
import { ChainUnavailableError } from '../chains/chain-errors';
import type { Deps } from '../deps';
import { renewLease } from '../db/lease';
import { cursorKey, LeaseLost, type Scan } from './lease-scan-cursors';
import { settleFound } from './settle-found';

/** Reads what is new on one leased target and settles it; returns the cursor to keep. */
export async function scanTarget(
  deps: Deps,
  scan: Scan,
  chain: ChainAdapter,
  target: ScanTarget,
  cursor: string | null,
  since: Date,
  limit: number,
  owners: Map<string, string>,
): Promise<{ cursor: string | null; settled: number; stopped: boolean }> {
  const page = await chain.scan(target, cursor, {
    since,
    limit,
    onGap: (message) => deps.logger.error({ network: chain.network, target: target.key }, message),
  });
  let settled = 0;
  let renewedAt = Date.now();
  for (const found of page.found) {
    // A long backlog outlasts a lease: renew it while working, and stop (writing nothing) once
    // another worker has taken the target over.
    if (Date.now() - renewedAt > (scan.leaseSeconds * 1000) / 3) {
      if (!(await renewLease(deps, { ...cursorKey(scan, target.key), seconds: scan.leaseSeconds })))
        throw new LeaseLost();
      renewedAt = Date.now();
    }
    let settledIt: boolean;
    try {
      settledIt = await settleFound(deps, chain, target, found, owners);
    } catch (error) {
      // This transaction could not be read: what comes after it on this target waits for the next
      // cycle (the cursor stays just before it); what came before stands, and other targets go on.
      if (!(error instanceof ChainUnavailableError)) throw error;
      deps.logger.warn(
        { network: chain.network, target: target.key, txId: found.txId, err: error.message },
        'transaction read postponed',
      );
      return { cursor: found.resumeBefore, settled, stopped: true };
    }
    if (!settledIt) return { cursor: found.resumeBefore, settled, stopped: true };
    settled++;
  }
  // A full page: a larger backlog continues next cycle.
  return { cursor: page.cursor, settled, stopped: page.found.length >= limit };
}
