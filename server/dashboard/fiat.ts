import { formatUnits, TOKEN_DECIMALS } from '../lib/decimal';

/**
 * The fiat value of a payment at its order's own rate (fiat per token), as an exact SQL numeric:
 * `units` base units times the rate, over the token's base units.
 */
export const fiatAtOrderRateSql = (units: string, rate: string) =>
  `(${units} * CAST(${rate} AS numeric) / ${10 ** TOKEN_DECIMALS})`;

/** Fiat kept at 6 decimals while summing, shown with 2 (half away from zero). */
export const formatFiatCents = (micros: bigint) => formatUnits((micros + 5_000n) / 10_000n, 2, 2);
