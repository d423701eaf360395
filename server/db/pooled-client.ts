import pg from 'pg';
import type { Sequelize } from 'sequelize';
import { isDatabaseUnavailable } from './is-database-unavailable';

/**
 * The one place that uses a connection of Sequelize's pool directly: named prepared statements
 * (server/db/prepared-statements.ts) need the pg client itself, which Sequelize's query API does
 * not expose. `connectionManager.getConnection` and `releaseConnection` are in Sequelize's public
 * typings; what they hand out being a `pg.Client` is checked here, and by
 * test/integration/prepared-statements.test.ts, so a Sequelize that changes it fails loudly.
 */
export async function withPooledClient<T>(
  sequelize: Sequelize,
  use: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const manager = sequelize.connectionManager;
  const connection = await manager.getConnection({ type: 'write' });
  let broken = false;
  try {
    if (!(connection instanceof pg.Client))
      throw new Error("Sequelize's pool handed out something other than a pg.Client");
    return await use(connection);
  } catch (error) {
    // A connection that failed under a query (cut, or silent past its timeout) is not given back:
    // the next statement would queue behind the one that never answered.
    broken = isDatabaseUnavailable(error);
    throw error;
  } finally {
    if (broken) await manager.destroyConnection(connection).catch(() => {});
    else manager.releaseConnection(connection);
  }
}
