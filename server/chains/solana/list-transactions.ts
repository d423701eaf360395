import { PublicKey, type Connection, type Finality } from '@solana/web3.js';
import type { ScanOptions, ScanPage } from '../chain-adapter';
import { solanaRpc } from './rpc';

const PAGE = 1000;
/** How far back one cycle walks (newest first) looking for the cursor: 100,000 signatures. */
const MAX_PAGES = 100;

/**
 * Signatures of final transactions that touched `address` (a recipient's token account, owned by
 * `recipient`) since `cursor` (the last signature handed out before), oldest first and at most
 * `limit`; without a cursor, back to `since`.
 * The new cursor is the last signature handed out (failed ones included, they pay nothing), so a
 * backlog larger than one cycle is read over several cycles, in order, and nothing is skipped.
 */
export async function listSolanaTransactions(
  connection: Connection,
  finality: Finality,
  address: string,
  recipient: string,
  cursor: string | null,
  opts: ScanOptions,
): Promise<ScanPage> {
  const account = new PublicKey(address);
  const seen: { signature: string; err: unknown }[] = []; // newest first
  let before: string | undefined;
  let reachedCursor = false;
  /** Without a cursor, the newest signature older than `since`: nothing before it is ever wanted. */
  let floor: string | null = null;
  for (let pages = 0; pages < MAX_PAGES && !reachedCursor; pages++) {
    const page = await solanaRpc('getSignaturesForAddress', () =>
      connection.getSignaturesForAddress(
        account,
        { until: cursor ?? undefined, before, limit: PAGE },
        finality,
      ),
    );
    for (const entry of page) {
      if (!cursor && entry.blockTime && entry.blockTime * 1000 < opts.since.getTime()) {
        floor = entry.signature;
        reachedCursor = true;
        break;
      }
      seen.push(entry);
    }
    if (page.length < PAGE) reachedCursor = true;
    else before = page[page.length - 1]!.signature;
  }
  if (!reachedCursor)
    opts.onGap?.(`more than ${MAX_PAGES * PAGE} new signatures on ${address}: older ones are not scanned`);
  const batch = seen.reverse().slice(0, opts.limit);
  // A first read starts from the floor: then the next call asks only for what came after it
  // (`until`), not for a page of older history again each cycle.
  const start = cursor ?? floor;
  // Stopping before a transaction keeps the cursor at the one handed out just before it.
  const found = batch.flatMap((s, i) =>
    s.err ? [] : [{ txId: s.signature, recipient, resumeBefore: i === 0 ? start : batch[i - 1]!.signature }],
  );
  return { found, cursor: batch.length > 0 ? batch[batch.length - 1]!.signature : start };
}
