import { QUOTE_MIN_PLACES, WIRE_DECIMALS } from '../../contract/decimal';

/**
 * One CSV record (RFC 4180): a field with a comma, quote or line break is quoted, quotes doubled;
 * lines end with CRLF; null is an empty field. A field of anyone's text (`anyones[i]`: descriptions
 * and metadata) that a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage
 * return) is prefixed with an apostrophe, as OWASP advises against CSV injection. Values the service
 * wrote itself (amounts, times, ids) are kept as they are. No object per field: exports write 10^6
 * records.
 */
export function csvRecord(fields: readonly (string | null)[], anyones: readonly boolean[] = []): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    const text = field === null || field === undefined ? '' : anyones[i] ? neutralised(field) : field;
    line += (i === 0 ? '' : ',') + (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  }
  return `${line}\r\n`;
}

const neutralised = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/**
 * SQL writing a timestamptz as JavaScript's `toISOString()` does (UTC, to the millisecond, the
 * microseconds cut off), so that an export's statement hands over text, not Dates to format.
 */
export const isoTimeSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * SQL writing `units` as formatUnits(units, decimals, minPlaces) (contract/decimal.ts) does, for
 * exports that hand over text: the places `decimals` gives, trailing zeros dropped down to
 * `minPlaces`. Multiplying by a literal of exactly `decimals` places keeps it exact. `units` and
 * `decimals` are SQL expressions; test/integration/decimal-sql.test.ts holds the two to the same text.
 */
export const formatUnitsSql = (units: string, decimals: string, minPlaces: number) => {
  const value = `trim_scale(${units} * ('0.' || repeat('0', ${decimals} - 1) || '1')::numeric)`;
  return `round(${value}, greatest(scale(${value}), ${minPlaces}))::text`;
};

/** SQL of formatAmount: base units of a token with `decimals` (the order's), "10.000000", "3.000000000000000001". */
export const tokenAmountSql = (units: string, decimals: string) =>
  formatUnitsSql(units, decimals, WIRE_DECIMALS);

/** SQL of formatQuote: a quote in 10^-6 units, 2 to 6 places ("9.20", "9.123"). */
export const quoteAmountSql = (column: string) =>
  formatUnitsSql(column, String(WIRE_DECIMALS), QUOTE_MIN_PLACES);
