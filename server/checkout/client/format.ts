/**
 * Locale formatting for the page. Token amounts are decimal strings and stay exact
 * (contract/decimal.ts: the whole part through Intl as a bigint, the fraction digit for digit).
 */
import { formatForPeople } from '../../../contract/decimal';
import type { Locale } from '../i18n';

/** "1234.500000 USDT" -> "1,234.50 USDT" (en), "1.234,50 USDT" (pt-BR): at least 2 places, every one kept. */
export const formatToken = (locale: Locale, amount: string, token: string) =>
  `${formatForPeople(amount, locale)} ${token}`;

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
