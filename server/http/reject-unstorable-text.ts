import type { RequestHandler } from 'express';
import { ApiError } from '../errors';

/**
 * PostgreSQL text and jsonb cannot hold NUL characters, and lone UTF-16 surrogates are not text at
 * all: a body carrying either (in any value or key, at any depth) is refused as a validation error
 * rather than reaching the database and failing there.
 */
// NUL is the point of this pattern.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function findUnstorable(value: unknown, path: string, depth = 0): string | null {
  if (depth > 64) return null; // deeper bodies are refused by the schemas themselves
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : null;
  if (!value || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    if (UNSTORABLE.test(key)) return `${path}.${key.replace(/[^\x20-\x7e]/g, '?')}`;
    const found = findUnstorable(child, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

export const rejectUnstorableText: RequestHandler = (req, _res, next) => {
  const path = findUnstorable(req.body, 'body');
  if (path) return next(ApiError.field(path, 'must not contain NUL characters or unpaired surrogates'));
  next();
};
