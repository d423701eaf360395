import type { Credit } from '../chains/chain-adapter';

/**
 * How far a block time and the server clock may disagree: a payment matched without its reference
 * may not predate its order by more than this.
 */
export const CLOCK_SKEW_MS = 60_000;

/** What a transaction credited to `owner` in `mint`, in base units. */
export function creditedTo(credits: Credit[], owner: string, mint: string): bigint {
  return credits
    .filter((c) => c.owner === owner && c.mint === mint)
    .reduce((sum, c) => sum + c.amountUnits, 0n);
}
