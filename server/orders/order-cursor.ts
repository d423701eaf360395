import { ApiError } from '../errors';

/** Opaque to clients: the id of the last order of the page, base64url-wrapped. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, id: lastId })).toString('base64url');
}

export function decodeCursor(cursor: string): string | null {
  if (cursor === '') return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      v?: unknown;
      id?: unknown;
    };
    if (parsed.v === 1 && typeof parsed.id === 'string' && /^[1-9]\d{0,18}$/.test(parsed.id))
      return parsed.id;
  } catch {
    // fall through to the error below
  }
  throw ApiError.field('query.cursor', 'is not a cursor returned by this API');
}
