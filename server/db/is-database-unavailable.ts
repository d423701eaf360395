import { ConnectionError, DatabaseError, TimeoutError } from 'sequelize';

/**
 * PostgreSQL's SQLSTATEs for "not now": connection exceptions (08), insufficient resources (53:
 * too many connections, out of memory or disk), operator intervention (57P01 admin shutdown,
 * 57P02 crash shutdown, 57P03 cannot connect now, 57P05 idle session timeout) and a statement
 * cancelled by statement_timeout (57014: the server is too slow to answer in time).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|53...|57P0[1-5]|57014)$/;
/** Node's socket errors on the way to the server. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** What node-postgres says, without a code, when the connection fails under a query or a connect. */
const UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'Query read timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'Client was closed and is not queryable',
    'Connection timed out',
    'terminating connection',
    'the database system is',
    'too many (clients|connections)',
  ].join('|'),
  'i',
);

/** The error and those it wraps (Sequelize's `parent`/`original`, the standard `cause`). */
function* chain(error: unknown): Generator<Error> {
  const seen = new Set<unknown>();
  let current = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    yield current;
    const wrapped = current as { parent?: unknown; original?: unknown; cause?: unknown };
    current = wrapped.parent ?? wrapped.original ?? wrapped.cause;
  }
}

/**
 * Whether an error means the database cannot be reached or answer right now (as opposed to a bad
 * query), wherever it surfaces: Sequelize, raw `pg` (the rate-limit store borrows pool clients),
 * a LISTEN connection. Such requests get 503 UPSTREAM_UNAVAILABLE with Retry-After, never a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of chain(error)) {
    if (link instanceof ConnectionError || link instanceof TimeoutError) return true;
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
    if (!(link instanceof DatabaseError) && UNAVAILABLE_MESSAGE.test(link.message)) return true;
  }
  return false;
}
