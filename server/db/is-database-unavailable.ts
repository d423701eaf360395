import { ConnectionError, DatabaseError } from 'sequelize';

/** PostgreSQL's "the server went away" classes: admin shutdown, crash, cannot connect now, connection exceptions. */
const UNAVAILABLE_SQLSTATE = /^(57P0[1-3]|08...|53300)$/;
const UNAVAILABLE_MESSAGE =
  /Connection terminated|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|connect ETIMEDOUT|Client has encountered a connection error/i;

/**
 * Whether an error means the database cannot be reached right now (as opposed to a bad query):
 * such requests get 503 UPSTREAM_UNAVAILABLE with Retry-After, never a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (!(error instanceof Error)) return false;
  const parent = error instanceof DatabaseError ? error.parent : error;
  const code = (parent as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_SQLSTATE.test(code)) return true;
  return (
    (error instanceof DatabaseError || error.name.startsWith('Sequelize')) &&
    UNAVAILABLE_MESSAGE.test(parent.message)
  );
}
