import { EVENT_ID_PATTERN } from '../../contract';
import { ApiError } from '../errors';

/**
 * A place in a merchant's events, in their keyset order (created_at, id), and the way the pages
 * walk from it: `older` (the newest-first listing) or `newer` (catching up after ending_before).
 * `at` is created_at to the microsecond, as PostgreSQL stores it (a JavaScript Date would round it).
 */
export type EventPosition = { at: string; id: string };
export type EventCursor = EventPosition & { toward: 'older' | 'newer' };

/** created_at as PostgreSQL writes it for a position: UTC, six decimals (an SQL expression). */
export const positionAtSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A time of the calendar (no 2026-02-30, no 24:00): the ISO form of its milliseconds round-trips. */
const isRealTime = (at: string) => {
  const ms = `${at.slice(0, 23)}Z`;
  const date = new Date(ms);
  return !Number.isNaN(date.getTime()) && date.toISOString() === ms;
};

/** Opaque to clients: the last event of the page and the direction, base64url-wrapped. */
export function encodeEventCursor(cursor: EventCursor): string {
  return Buffer.from(
    JSON.stringify({ v: 1, d: cursor.toward === 'older' ? 'o' : 'n', at: cursor.at, id: cursor.id }),
  ).toString('base64url');
}

/** The cursor's place and direction; null for the empty cursor (the first page). */
export function decodeEventCursor(cursor: string): EventCursor | null {
  if (cursor === '') return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { v, d, at, id } = parsed;
    if (
      v === 1 &&
      (d === 'o' || d === 'n') &&
      typeof at === 'string' &&
      AT.test(at) &&
      isRealTime(at) &&
      typeof id === 'string' &&
      EVENT_ID_PATTERN.test(id)
    )
      return { toward: d === 'o' ? 'older' : 'newer', at, id };
  } catch {
    // fall through to the error below
  }
  throw ApiError.field('query.cursor', 'is not a cursor returned by this API');
}
