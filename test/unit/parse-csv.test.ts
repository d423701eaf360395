import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from '../../server/lib/parse-csv';

/** The upload's strict reader, held to csv-parse (a maintained parser) on what both accept. */
describe('parseCsv', () => {
  it.each([
    ['plain, CRLF', 'a,b,c\r\n1,2,3\r\n'],
    ['LF, no line break at the end', 'a,b\n1,2'],
    ['quoted commas, quotes and line breaks', 'a,b\n"x, y","say ""hi""\nthere"\n'],
    ['empty fields and an empty quoted one', 'a,b,c\n,"",3\n'],
    ['a byte-order mark', '\ufeffa,b\n1,2\n'],
    ['trailing empty lines', 'a,b\n1,2\n\n\n'],
  ])('%s: as csv-parse reads it', (_label, text) => {
    expect(parseCsv(text)).toEqual(
      parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }),
    );
  });

  it.each([
    ['a quote inside an unquoted field', 'a,b\n1,x"y\n', 2],
    ['text after a closing quote', 'a,b\n"1"x,2\n', 2],
    ['a quote never closed', 'a,b\n1,"2\n3\n', 2],
  ])('refuses %s, naming the line', (_label, text, line) => {
    expect(() => parseCsv(text)).toThrow(CsvSyntaxError);
    try {
      parseCsv(text);
    } catch (error) {
      expect((error as CsvSyntaxError).line).toBe(line);
    }
  });
});
