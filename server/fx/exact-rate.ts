/**
 * Arithmetic with a rate (fiat per 1 token) kept as an exact fraction: quotes converted to token
 * units and the rate written for labels, never through a float.
 */
import { formatUnits, WIRE_DECIMALS, type Decimal } from '../../contract/decimal';

/**
 * Wire units (10^-6 token) for a fiat amount in 10^-6 units at `rate` (fiat per 1 token), rounded up
 * so the merchant never receives less than quoted: ceil(quoteUnits * 10^rateScale / rateDigits).
 */
export function convertQuote(quoteUnits: bigint, rate: Decimal): bigint {
  if (rate.digits <= 0n) throw new RangeError('rate must be positive');
  if (quoteUnits < 0n) throw new RangeError('a quote is not negative');
  return (quoteUnits * 10n ** BigInt(rate.scale) + rate.digits - 1n) / rate.digits;
}

/** The rate at exactly `places` decimals (6 by default), rounded half up, for labels. */
export function formatRate(rate: Decimal, places = WIRE_DECIMALS): string {
  const shift = places - rate.scale;
  const scaled =
    shift >= 0
      ? rate.digits * 10n ** BigInt(shift)
      : (rate.digits + 5n * 10n ** BigInt(-shift - 1)) / 10n ** BigInt(-shift);
  return formatUnits(scaled, places);
}
