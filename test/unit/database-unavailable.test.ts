import {
  ConnectionAcquireTimeoutError,
  ConnectionRefusedError,
  DatabaseError,
  UniqueConstraintError,
} from 'sequelize';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../server/db/is-database-unavailable';

/** An error as node-postgres raises it: a message, and a SQLSTATE or socket code when it has one. */
const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
/** The same, as Sequelize's query path wraps it. */
const wrapped = (error: Error) => new DatabaseError(Object.assign(error, { sql: 'SELECT 1' }));

describe('which failures mean the database is unavailable (503, not 500)', () => {
  const unavailable: [string, Error][] = [
    ['connection refused', pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', pgError('read ECONNRESET', 'ECONNRESET')],
    [
      'connection terminated under a query (raw pg, as the rate-limit store sees it)',
      pgError('Connection terminated unexpectedly'),
    ],
    ['connection terminated, through Sequelize', wrapped(pgError('Connection terminated unexpectedly'))],
    ['no answer within query_timeout', wrapped(pgError('Query read timeout'))],
    ['no connection within connectionTimeoutMillis', pgError('timeout exceeded when trying to connect')],
    ['connect timed out (Sequelize)', pgError('Connection terminated due to connection timeout')],
    [
      'terminated by an administrator (57P01)',
      wrapped(pgError('terminating connection due to administrator command', '57P01')),
    ],
    ['the server shutting down (57P03)', pgError('the database system is shutting down', '57P03')],
    ['the server starting up (57P03)', pgError('the database system is starting up', '57P03')],
    ['too many connections (53300)', pgError('sorry, too many clients already', '53300')],
    ['too many connections for a role (53300)', pgError('too many connections for role "app"', '53300')],
    ['statement_timeout (57014)', wrapped(pgError('canceling statement due to statement timeout', '57014'))],
    ['a connection exception (08006)', wrapped(pgError('connection failure', '08006'))],
    [
      'the pool gave no connection in time',
      new ConnectionAcquireTimeoutError(new Error('Operation timeout')),
    ],
    [
      'Sequelize could not connect',
      new ConnectionRefusedError(pgError('connect ECONNREFUSED', 'ECONNREFUSED')),
    ],
    ['a host that does not answer', pgError('connect ETIMEDOUT 10.0.0.1:5432', 'ETIMEDOUT')],
    [
      'wrapped as a cause',
      new Error('rate limit store failed', { cause: pgError('Connection terminated unexpectedly') }),
    ],
  ];
  it.each(unavailable)('%s', (_, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  const notUnavailable: [string, unknown][] = [
    ['a syntax error', wrapped(pgError('syntax error at or near "SELEC"', '42601'))],
    [
      'a value too long (a bad input, not an outage)',
      wrapped(pgError('value too long for type character varying(255)', '22001')),
    ],
    ['a unique violation', new UniqueConstraintError({ message: 'duplicate key' })],
    ['a deadlock', wrapped(pgError('deadlock detected', '40P01'))],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error at all', 'Connection terminated'],
  ];
  it.each(notUnavailable)('not: %s', (_, error) => expect(isDatabaseUnavailable(error)).toBe(false));
});
