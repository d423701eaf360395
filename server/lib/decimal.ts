/**
 * Exact decimal arithmetic on bigint base units. Money never passes through a JS number.
 */
export const TOKEN_DECIMALS = 6;

/** Decimal places an amount given on the wire may have; a token has at least this many decimals. */
export const WIRE_DECIMALS = 6;

/** Base units of a token in one wire unit (10^-6 token): 1 at 6 decimals, 10^12 at 18. */
export const wireStep = (decimals: number): bigint => 10n ** BigInt(decimals - WIRE_DECIMALS);

/**
 * A token amount as the API writes it: at least 6 places ("12.500000"), more only when the base
 * units need them ("12.500000000000000001" at 18 decimals: never rounded away).
 */
export const formatAmount = (units: bigint, decimals: number): string =>
  formatUnits(units, decimals, WIRE_DECIMALS);

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** "12.5" -> 12500000n at 6 decimals. Throws on more decimals than `decimals` or a malformed string. */
export function parseUnits(value: string, decimals: number): bigint {
  const match = DECIMAL.exec(value);
  if (!match) throw new RangeError(`not a decimal string: "${value}"`);
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) throw new RangeError(`more than ${decimals} decimal places: "${value}"`);
  return BigInt(match[1]! + fraction.padEnd(decimals, '0'));
}

/** 12500000n -> "12.500000" (exactly `minFraction` to `decimals` places). */
export function formatUnits(units: bigint, decimals: number, minFraction = decimals): string {
  if (units < 0n) return `-${formatUnits(-units, decimals, minFraction)}`;
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals);
  while (fraction.length > minFraction && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A decimal as an exact fraction: digits / 10^scale. */
export type Decimal = { digits: bigint; scale: number };

export function parseDecimal(value: string): Decimal {
  const match = DECIMAL.exec(value);
  if (!match) throw new RangeError(`not a decimal string: "${value}"`);
  const fraction = match[2] ?? '';
  return { digits: BigInt(match[1]! + fraction), scale: fraction.length };
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  if (b <= 0n || a < 0n) throw new RangeError('ceilDiv expects a >= 0 and b > 0');
  return (a + b - 1n) / b;
}

/**
 * Token base units for a fiat amount at `rate` (fiat per 1 token), rounded up so the merchant
 * never receives less than quoted: ceil(quoteUnits * 10^rateScale / rateDigits).
 */
export function convertQuote(quoteUnits: bigint, rate: Decimal): bigint {
  if (rate.digits <= 0n) throw new RangeError('rate must be positive');
  return ceilDiv(quoteUnits * 10n ** BigInt(rate.scale), rate.digits);
}

/** The rate at exactly 6 decimals, rounded half up, for labels. */
export function formatRate(rate: Decimal, places = TOKEN_DECIMALS): string {
  const shift = places - rate.scale;
  const scaled =
    shift >= 0
      ? rate.digits * 10n ** BigInt(shift)
      : (rate.digits + 5n * 10n ** BigInt(-shift - 1)) / 10n ** BigInt(-shift);
  return formatUnits(scaled, places);
}

export function decimalToString(rate: Decimal): string {
  return formatUnits(rate.digits, rate.scale, 0);
}
