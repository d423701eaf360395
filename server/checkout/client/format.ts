/**
 * Locale formatting for the page. Token amounts are decimal strings and stay exact: the integer
 * part goes through Intl as a bigint and the fraction is kept digit for digit (never a float).
 */
import type { Locale } from '../i18n';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

function decimalSeparator(locale: Locale): string {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/** "1234.500000" -> "1,234.50" (en), "1.234,50" (pt-BR): at least 2 decimals, at most 6, exact. */
export function formatDecimal(locale: Locale, amount: string, minDecimals = 2): string {
  const match = DECIMAL.exec(amount);
  if (!match) return amount;
  const whole = new Intl.NumberFormat(locale).format(BigInt(match[1]!));
  let fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length < minDecimals) fraction = fraction.padEnd(minDecimals, '0');
  return fraction ? `${whole}${decimalSeparator(locale)}${fraction}` : whole;
}

export const formatToken = (locale: Locale, amount: string, token: string) =>
  `${formatDecimal(locale, amount)} ${token}`;

/** "12.500000" -> "12.5": what a payer types or pastes into a wallet (a dot, no grouping). */
export function plainAmount(amount: string): string {
  return amount.includes('.') ? amount.replace(/\.?0+$/, '') : amount;
}

/** A fiat price in its currency ("R$ 49,90"); display only, so a float is fine here. */
export function formatFiat(locale: Locale, amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 6 }).format(
      Number(amount),
    );
  } catch {
    return `${amount} ${currency}`;
  }
}

export function formatDate(locale: Locale, iso: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** Milliseconds left as "14:05" or "1:02:03". */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** "5Kd3…x9Qa": a long id shortened for a sentence (the full one is in the link and the copy). */
export const shortId = (id: string) => (id.length > 16 ? `${id.slice(0, 6)}…${id.slice(-6)}` : id);
