import { useMemo } from 'react';
import { formatForPeople } from '../../../contract/decimal';
import { useI18n } from '../i18n';

/** Amounts, dates and counts in the language shown (Intl), from the API's strings. */
export function useFormat() {
  const { locale } = useI18n();
  return useMemo(() => {
    const plainFmt = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 6 });
    const intFmt = new Intl.NumberFormat(locale);
    const compactFmt = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
    const pctFmt = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
    const dateTimeFmt = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const dateTimeLongFmt = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
    const dayFmt = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const dayLongFmt = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
    const fiatFmts = new Map<string, Intl.NumberFormat>();
    // Intl formats a decimal string exactly (no detour through a float).
    const exact = (fmt: Intl.NumberFormat, value: string) => fmt.format(value as unknown as number);
    const calendarDate = (ymd: string) => {
      const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
      return new Date(Date.UTC(y, m - 1, d));
    };
    return {
      /** "1,234.50" (en) / "1.234,50" (pt-BR): at least 2 places, every further one kept (as the checkout). */
      number: (value: string) => formatForPeople(value, locale),
      /** "12.50 USDT"; "3.000000000000000001 USDT" for an 18-decimal token one unit over 3. */
      token: (value: string, token: string) => `${formatForPeople(value, locale)} ${token}`,
      /** "R$ 1.234,50" */
      fiat: (value: string, currency: string) => {
        let fmt = fiatFmts.get(currency);
        if (!fmt) {
          try {
            fmt = new Intl.NumberFormat(locale, { style: 'currency', currency });
          } catch {
            fmt = plainFmt;
          }
          fiatFmts.set(currency, fmt);
        }
        return exact(fmt, value);
      },
      int: (value: number) => intFmt.format(value),
      /** "1.2K": axis labels. */
      compact: (value: number) => compactFmt.format(value),
      percent: (value: number) => pctFmt.format(value),
      dateTime: (iso: string) => dateTimeFmt.format(new Date(iso)),
      dateTimeLong: (iso: string) => dateTimeLongFmt.format(new Date(iso)),
      /** A calendar day (YYYY-MM-DD), short: "12 Mar". */
      day: (ymd: string) => dayFmt.format(calendarDate(ymd)),
      dayLong: (ymd: string) => dayLongFmt.format(calendarDate(ymd)),
    };
  }, [locale]);
}

export type Format = ReturnType<typeof useFormat>;

/** The browser's time zone (IANA), where days begin and end for the overview and the exports. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Today in a time zone, as YYYY-MM-DD. */
export function todayIn(timeZone: string, now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .formatToParts(now)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** A calendar date moved by whole days. */
export function addDays(ymd: string, days: number): string {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Days from a to b (b - a). */
export function daysBetween(a: string, b: string): number {
  const at = (ymd: string) => {
    const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((at(b) - at(a)) / 86_400_000);
}

/** The start of a calendar day in the browser's own time zone, as an ISO time for a list filter. */
export function localDayStart(ymd: string): string {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).toISOString();
}

/** An order's reference in short: "9WzDXw…AWWM" (its first 6 and last 4 characters). */
export const shortRef = (reference: string) => `${reference.slice(0, 6)}…${reference.slice(-4)}`;
/** A transaction id named in a notice: its start, enough to find it in a wallet's history. */
export const shortTx = (txId: string) => `${txId.slice(0, 12)}…`;
