import { ConnectionError, type Sequelize } from 'sequelize';

/**
 * A statement on a connection whose earlier statement got no answer fails at once. Sequelize marks
 * such a connection invalid (`_invalid`, which its pool checks to destroy it when given back), but
 * a transaction still holds it until it ends: its ROLLBACK would queue behind the statement that
 * never answered and wait out a second query timeout, doubling the request's wait during a
 * partition. Its connection is closed instead, which ends the transaction on the server too
 * (nothing of it is committed unless its COMMIT was the statement left unanswered).
 */
export function refuseDeadConnections(sequelize: Sequelize): void {
  sequelize.addHook('beforeQuery', (_options, query) => {
    const connection = (query as unknown as { connection?: { _invalid?: boolean } }).connection;
    if (connection?._invalid)
      throw new ConnectionError(new Error('Connection terminated: an earlier statement got no answer'));
  });
}
