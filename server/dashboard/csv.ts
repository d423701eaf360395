/**
 * One CSV record (RFC 4180): a field with a comma, quote or line break is quoted, quotes doubled;
 * lines end with CRLF. A text field that a spreadsheet would run as a formula (starting with =, +,
 * -, @, tab or carriage return) is prefixed with an apostrophe, as OWASP advises against CSV
 * injection: descriptions and metadata are anyone's text. Numbers and times are never text fields.
 */
export function csvRecord(fields: readonly (CsvField | null)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** A field: plain text, or a value the service wrote itself (amounts, times, ids) kept as it is. */
export type CsvField = string | { raw: string };

function csvField(field: CsvField | null): string {
  if (field === null) return '';
  const text = typeof field === 'string' ? neutralised(field) : field.raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const neutralised = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** The raw form of a value the service wrote (never neutralised). */
export const raw = (value: string | null | undefined): CsvField | null =>
  value === null || value === undefined ? null : { raw: value };
