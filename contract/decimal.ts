/**
 * Decimal text <-> integer base units: the one rule the server, the SDK, the dashboard and the
 * checkout page all use. Money never passes through a JS number. Plain TypeScript (no zod, no Node
 * API), so browser bundles take it alone; PostgreSQL's copy of `formatUnits` (server/dashboard/csv.ts)
 * is tested against it.
 */
import { MAX_TOKEN_DECIMALS } from './network-table';

/**
 * Decimal places an amount has on the wire: what the API takes has at most this many, what it
 * writes at least this many. A token has at least this many decimals.
 */
export const WIRE_DECIMALS = 6;

/** Most decimal places any conversion handles (a token's most decimals). */
export const MAX_DECIMALS = MAX_TOKEN_DECIMALS;

/** A decimal as an exact fraction: digits / 10^scale ("12.50" is 1250 / 10^2). */
export type Decimal = { digits: bigint; scale: number };

/** Decimal text as the API writes and takes it: digits, then a point and digits, nothing else. */
export const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS)
    throw new RangeError(`decimals must be an integer from 0 to ${MAX_DECIMALS}, not ${decimals}`);
}

/** "12.50" -> { digits: 1250n, scale: 2 }: digits, an optional point and digits; nothing else. */
export function parseDecimal(text: string): Decimal {
  if (!DECIMAL_TEXT.test(text)) throw new RangeError(`not a decimal string: "${text.slice(0, 100)}"`);
  const [whole = '', fraction = ''] = text.split('.');
  return { digits: BigInt(whole + fraction), scale: fraction.length };
}

/** "12.5" -> 12500000n at 6 decimals. Throws a RangeError on more places than `decimals` or malformed text. */
export function parseUnits(text: string, decimals: number): bigint {
  checkDecimals(decimals);
  const { digits, scale } = parseDecimal(text);
  if (scale > decimals) throw new RangeError(`more than ${decimals} decimal places: "${text.slice(0, 100)}"`);
  return digits * 10n ** BigInt(decimals - scale);
}

/** 12500000n at 6 decimals -> "12.500000"; trailing zeros dropped down to `minPlaces` ("12.5" with 0). */
export function formatUnits(units: bigint, decimals: number, minPlaces = decimals): string {
  checkDecimals(decimals);
  if (units < 0n) return `-${formatUnits(-units, decimals, minPlaces)}`;
  const text = units.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  let fraction = text.slice(text.length - decimals);
  while (fraction.length > minPlaces && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * A token amount as the API writes it: at least 6 places ("12.500000"), more only when the base
 * units need them ("12.500000000000000001" at 18 decimals: never rounded away).
 */
export const formatAmount = (units: bigint, decimals: number): string =>
  formatUnits(units, decimals, WIRE_DECIMALS);

/** Places a fiat quote is written with at least ("9.20"); it has at most WIRE_DECIMALS ("9.123456"). */
export const QUOTE_MIN_PLACES = 2;

/** A fiat quote kept in 10^-6 units, as the API writes it: 2 to 6 places. */
export const formatQuote = (units: bigint): string => formatUnits(units, WIRE_DECIMALS, QUOTE_MIN_PLACES);

/** Base units of a token in one wire unit (10^-6 token): 1 at 6 decimals, 10^12 at 18. */
export const wireStep = (decimals: number): bigint => 10n ** BigInt(decimals - WIRE_DECIMALS);

/** A decimal string with its trailing zeros dropped: "10.500000" -> "10.5", "007" -> "7". */
export function plainDecimal(text: string): string {
  const { digits, scale } = parseDecimal(text);
  return formatUnits(digits, scale, 0);
}

/**
 * A decimal string for people: the whole part grouped as `locale` writes numbers ("1,234" in en,
 * "1.234" in pt-BR), every place of the fraction kept and at least `minPlaces` of them. Exact: the
 * whole part goes through Intl as a bigint. Text that is not a decimal string comes back as it is.
 */
export function formatForPeople(text: string, locale: string, minPlaces = 2): string {
  if (!DECIMAL_TEXT.test(text)) return text;
  const [digits = '', places = ''] = text.split('.');
  const whole = new Intl.NumberFormat(locale).format(BigInt(digits));
  const fraction = places.replace(/0+$/, '').padEnd(minPlaces, '0');
  if (!fraction) return whole;
  const point = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value;
  return `${whole}${point ?? '.'}${fraction}`;
}
