import { Readable } from 'node:stream';
import type pg from 'pg';
import type { DateRangeQuery } from '../../contract';
import { withPooledClient } from '../db/pooled-client';
import type { Deps } from '../deps';
import { csvRecord } from './csv';
import { dateRange, RANGE_END_SQL, RANGE_START_SQL } from './date-range';

/**
 * Rows read per statement: the export holds one page in memory, whatever its length (with 1,000
 * the service's memory grew more while streaming 10^6 rows; see npm run bench -- --only dashboard).
 */
export const EXPORT_PAGE = 250;

/** Every column as PostgreSQL's text: the statement writes what the record shows (no Date, no row object). */
const AS_TEXT = { getTypeParser: () => (value: string) => value };

/** `$name` placeholders to PostgreSQL's `$1…` in the order of `keys`. */
function positional(text: string, keys: readonly string[]): string {
  return text.replace(/\$([A-Za-z_]\w*)/g, (_, key: string) => {
    const at = keys.indexOf(key);
    if (at < 0) throw new Error(`no value for $${key}`);
    return `$${at + 1}`;
  });
}

const RANGE_KEYS = ['merchantId', 'from', 'to', 'timeZone'] as const;
const KEYSET_KEYS = ['afterAt', 'afterId'] as const;

/**
 * A statement of several branches (a UNION ALL of tables), given each branch's page condition:
 * `page(at, id)` is its range and keyset conditions (`AND …`) then its own `ORDER BY at, id LIMIT`,
 * so that each branch reads one page through its own index; the spec's atColumn and idColumn then
 * order the branches' rows together (outside them), and the spec's page is taken from those.
 */
export type BranchedSelect = (page: (atColumn: string, idColumn: string) => string) => string;

export type KeysetCsvSpec = {
  /** Names its prepared statements (one per connection, as server/db/prepared-statements.ts). */
  name: string;
  header: readonly string[];
  /**
   * The statement without its range, keyset and order. Its first two columns are the keyset
   * position as text (`<atColumn>::text`, `<idColumn>::text`), then one text column per header
   * field, written as the record shows it (timestamps and amounts formatted by the statement). It
   * filters by `$merchantId` and ends where `AND <at column> in range AND (at, id) > keyset` can
   * follow (`atColumn`, `idColumn` name them for that). Or branches, each paged on its own
   * (BranchedSelect): an ORDER BY over a UNION ALL would sort every remaining row of the range on
   * each page, where each branch's own ORDER BY … LIMIT reads one page through its index.
   */
  select: string | BranchedSelect;
  /** Further `$name` values the statement uses (a filter), as text; its name says which are used. */
  values?: Readonly<Record<string, string>>;
  atColumn: string;
  idColumn: string;
  /** The id column's type: bigint (a table's own id), or text (ids of several tables in one keyset). */
  idType?: 'bigint' | 'text';
  /** Per header field: anyone's text (neutralised against formulas, see csv.ts) or the service's own value. */
  anyones: readonly boolean[];
};

/**
 * A CSV of a merchant's rows in a range of days, oldest first, as a stream read page by page: a
 * keyset on (at, id), so each page costs the same and memory stays flat at any length.
 *
 * Memory: a page is read only when the stream is asked for more (the response has taken what was
 * given: `res.write()` returned true or 'drain' came), one page at a time, and handed on as one
 * chunk; its rows are arrays of PostgreSQL's text, never row objects, Dates or model instances.
 * The keyset position is kept as PostgreSQL's text of the timestamp, exact to the microsecond (as
 * a JS Date it lost the microseconds, and a page began again with the last row of the one before).
 */
export function keysetCsv(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: DateRangeQuery,
  spec: KeysetCsvSpec,
): Readable {
  const range = dateRange(query);
  const tail = (at: string, id: string) => `ORDER BY ${at}, ${id} LIMIT ${EXPORT_PAGE}`;
  const condition = (keyset: boolean) => (at: string, id: string) =>
    `AND ${at} >= ${RANGE_START_SQL} AND ${at} < ${RANGE_END_SQL}` +
    (keyset
      ? ` AND (${at}, ${id}) > (CAST($afterAt AS timestamptz), CAST($afterId AS ${spec.idType ?? 'bigint'}))`
      : '');
  const statement = (keyset: boolean) => {
    const where = condition(keyset);
    const outer = tail(spec.atColumn, spec.idColumn);
    return typeof spec.select === 'string'
      ? `${spec.select}\n            ${where(spec.atColumn, spec.idColumn)} ${outer}`
      : `${spec.select((at, id) => `${where(at, id)} ${tail(at, id)}`)} ${outer}`;
  };
  const keys = [...RANGE_KEYS, ...Object.keys(spec.values ?? {}), ...KEYSET_KEYS];
  const first = { name: `stablepay_csv_${spec.name}_first`, text: positional(statement(false), keys) };
  const next = { name: `stablepay_csv_${spec.name}_next`, text: positional(statement(true), keys) };
  const values = [merchantId, range.from, range.to, range.timeZone, ...Object.values(spec.values ?? {})];
  let after: [string, string] | null = null;
  let done = false;

  async function page(): Promise<string> {
    const statement = after ? next : first;
    const { rows } = await withPooledClient(deps.db.sequelize, (client) =>
      client.query<(string | null)[]>({
        name: statement.name,
        text: statement.text,
        values: after ? [...values, ...after] : values,
        rowMode: 'array',
        types: AS_TEXT as unknown as pg.CustomTypesConfig,
      }),
    );
    let chunk = '';
    for (const row of rows) chunk += csvRecord(row.slice(2), spec.anyones);
    const last = rows[rows.length - 1];
    if (!last || rows.length < EXPORT_PAGE) done = true;
    else after = [last[0]!, last[1]!];
    // Emptied, so that the rows die young. pg's query and result objects live through the
    // statement's round trip and are often in V8's old generation by the time the rows arrive;
    // while they point at the rows, young-generation collections keep the rows and move them to
    // the old generation, to wait as garbage for a full collection. Measured in-process over
    // 480,000 rows: the old generation rose from 21 to 95 MB and back again and again (about 4 MB
    // per MB of CSV), and with the array emptied it stayed under 27 MB.
    rows.length = 0;
    return chunk;
  }

  let reading = false;
  let started = false;
  return new Readable({
    read() {
      if (reading) return;
      reading = true;
      const header = started ? '' : csvRecord(spec.header);
      started = true;
      page().then(
        (chunk) => {
          reading = false;
          if (header || chunk) this.push(header + chunk);
          if (done) this.push(null);
        },
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
}
