import { Readable } from 'node:stream';
import { QueryTypes } from 'sequelize';
import type { DateRangeQuery } from '../../contract';
import type { Deps } from '../deps';
import { csvRecord } from './csv';
import { dateRange, RANGE_END_SQL, RANGE_START_SQL } from './date-range';

/**
 * Rows read per statement: the export holds one page in memory, whatever its length (with 1,000
 * the service's memory grew more while streaming 10^6 rows; see npm run bench -- --only dashboard).
 */
export const EXPORT_PAGE = 250;

/** A row of an export: its keyset position (`at`, `id`) and whatever its record needs. */
export type KeysetRow = { id: string; at: Date };

/**
 * A CSV of a merchant's rows in a range of days, oldest first, as a stream read page by page: a
 * keyset on (at, id), so each page costs the same and memory stays flat at any length. `select`
 * is the statement without its range, keyset and order: it must name its columns `id` and `at`,
 * filter by `$merchantId`, and end where `AND <at column> in range AND (at, id) > keyset` can follow
 * (`atColumn`, `idColumn` name them for that).
 */
export function keysetCsv<R extends KeysetRow>(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: DateRangeQuery,
  spec: { header: string[]; select: string; atColumn: string; idColumn: string; record: (row: R) => string },
): Readable {
  const range = dateRange(query);
  async function* lines() {
    yield csvRecord(spec.header);
    let after: KeysetRow | null = null;
    for (;;) {
      const rows: R[] = await deps.db.sequelize.query<R>(
        `${spec.select}
            AND ${spec.atColumn} >= ${RANGE_START_SQL} AND ${spec.atColumn} < ${RANGE_END_SQL}
            ${after ? `AND (${spec.atColumn}, ${spec.idColumn}) > ($afterAt, $afterId)` : ''}
          ORDER BY ${spec.atColumn}, ${spec.idColumn}
          LIMIT ${EXPORT_PAGE}`,
        {
          bind: {
            merchantId,
            from: range.from,
            to: range.to,
            timeZone: range.timeZone,
            ...(after ? { afterAt: after.at, afterId: after.id } : {}),
          },
          type: QueryTypes.SELECT,
        },
      );
      yield rows.map(spec.record).join('');
      const last = rows[rows.length - 1];
      if (!last || rows.length < EXPORT_PAGE) return;
      after = { at: last.at, id: last.id };
    }
  }
  return Readable.from(lines());
}
