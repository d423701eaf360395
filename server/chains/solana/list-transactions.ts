import { PublicKey, type Connection, type Finality } from '@solana/web3.js';
import type { ScanPage } from '../chain-adapter';
import { solanaRpc } from './rpc';

const PAGE = 1000;

/**
 * Signatures of final transactions that touched `address` since `cursor` (the newest signature
 * already seen), walking back page by page; without a cursor, back to `since`. Failed transactions
 * pay nothing and are left out. The new cursor is the newest signature seen, so nothing is read twice.
 */
export async function listSolanaTransactions(
  connection: Connection,
  finality: Finality,
  address: string,
  cursor: string | null,
  opts: { since: Date; limit: number },
): Promise<ScanPage> {
  const account = new PublicKey(address);
  const seen: { signature: string; err: unknown }[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await solanaRpc('getSignaturesForAddress', () =>
      connection.getSignaturesForAddress(
        account,
        { until: cursor ?? undefined, before, limit: PAGE },
        finality,
      ),
    );
    let reachedSince = false;
    for (const entry of page) {
      if (!cursor && entry.blockTime && entry.blockTime * 1000 < opts.since.getTime()) {
        reachedSince = true;
        break;
      }
      seen.push(entry);
    }
    if (reachedSince || page.length < PAGE || seen.length >= opts.limit) break;
    before = page[page.length - 1]!.signature;
  }
  return {
    txIds: seen
      .filter((s) => !s.err)
      .map((s) => s.signature)
      .reverse(),
    cursor: seen[0]?.signature ?? cursor,
  };
}
