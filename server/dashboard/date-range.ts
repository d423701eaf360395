import { MAX_RANGE_DAYS, type DateRangeQuery } from '../../contract';
import { ApiError } from '../errors';

export type DateRange = { from: string; to: string; timeZone: string; days: string[] };

const DAY_MS = 86_400_000;

/** The days from..to (inclusive) in a time zone, checked: `to` not before `from`, at most MAX_RANGE_DAYS. */
export function dateRange(query: DateRangeQuery): DateRange {
  const start = Date.parse(`${query.from}T00:00:00Z`);
  const end = Date.parse(`${query.to}T00:00:00Z`);
  if (end < start) throw ApiError.field('query.to', 'must not be before from');
  const count = (end - start) / DAY_MS + 1;
  if (count > MAX_RANGE_DAYS)
    throw ApiError.field('query.to', `must be at most ${MAX_RANGE_DAYS} days after from`);
  const days = Array.from({ length: count }, (_, i) =>
    new Date(start + i * DAY_MS).toISOString().slice(0, 10),
  );
  return { from: query.from, to: query.to, timeZone: query.timeZone ?? 'UTC', days };
}

/**
 * SQL for the range's first and last instants (`$from`, `$to`, `$timeZone` bound): local midnight
 * of `from` and of the day after `to`, as timestamptz.
 */
export const RANGE_START_SQL = `(CAST($from AS date)::timestamp AT TIME ZONE $timeZone)`;
export const RANGE_END_SQL = `((CAST($to AS date) + 1)::timestamp AT TIME ZONE $timeZone)`;
