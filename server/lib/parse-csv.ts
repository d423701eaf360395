/** A CSV text that is not RFC 4180: `line` is where the reader stopped (from 1). */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * The records of an RFC 4180 text, each an array of its fields. Strict, because the fields become
 * payments: a quoted field may hold commas, line breaks and doubled quotes; a quote anywhere else,
 * text after a closing quote or a quote never closed is a CsvSyntaxError, never guessed at. Lines end
 * with CRLF or LF; a byte-order mark and the empty lines at the end are dropped. The project's CSV
 * parser (csv-parse) is a test dependency only, and this is all an upload needs.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
    line++;
  };
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"' && field === '') {
      const startLine = line;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvSyntaxError('a quoted field is never closed', startLine);
        const inner = text[i]!;
        if (inner === '"' && text[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (inner === '"') {
          i++;
          break;
        } else {
          if (inner === '\n') line++;
          field += inner;
          i++;
        }
      }
      const after = text[i];
      const ends = after === undefined || after === ',' || after === '\n' || text.startsWith('\r\n', i);
      if (!ends)
        throw new CsvSyntaxError('text after a closing quote (write a quote inside one as "")', line);
      continue;
    }
    if (char === '"') throw new CsvSyntaxError('a quote inside an unquoted field (quote the field)', line);
    if (char === ',') {
      endField();
      i++;
    } else if (char === '\r' && text[i + 1] === '\n') {
      endRecord();
      i += 2;
    } else if (char === '\n') {
      endRecord();
      i++;
    } else {
      field += char;
      i++;
    }
  }
  if (field !== '' || record.length > 0) endRecord();
  while (records.length > 0 && records[records.length - 1]!.every((f) => f === '')) records.pop();
  return records;
}
