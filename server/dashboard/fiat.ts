import { formatUnits, MAX_DECIMALS } from '../../contract/decimal';

/**
 * The fiat value of a payment at its order's own rate (fiat per token), as an exact SQL numeric:
 * `units` base units times the rate, over the token's base units (10^`decimals`, an SQL expression).
 */
export const fiatAtOrderRateSql = (units: string, rate: string, decimals: string) =>
  `(${units} * CAST(${rate} AS numeric) / power(10::numeric, ${decimals}))`;

/**
 * The hourly figures keep received amounts in 10^-36 token: exact for any token's decimals (at most
 * MAX_DECIMALS), and what the dashboard sums them in.
 */
export const STATS_DECIMALS = MAX_DECIMALS;

/** Fiat kept at 6 decimals while summing, shown with 2 (half away from zero). */
export const formatFiatCents = (micros: bigint) => formatUnits((micros + 5_000n) / 10_000n, 2, 2);
