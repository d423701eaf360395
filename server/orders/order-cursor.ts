import { ApiError } from '../errors';

/** Opaque to clients: the id of the last order of the page, base64url-wrapped. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, id: lastId })).toString('base64url');
}

/** Order ids are PostgreSQL bigints: a larger id would fail in the query, not as a bad cursor. */
const MAX_BIGINT = 2n ** 63n - 1n;

export function decodeCursor(cursor: string): string | null {
  if (cursor === '') return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      v?: unknown;
      id?: unknown;
    };
    if (
      parsed.v === 1 &&
      typeof parsed.id === 'string' &&
      /^[1-9]\d{0,18}$/.test(parsed.id) &&
      BigInt(parsed.id) <= MAX_BIGINT
    )
      return parsed.id;
  } catch {
    // fall through to the error below
  }
  throw ApiError.field('query.cursor', 'is not a cursor returned by this API');
}
