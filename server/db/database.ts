import { Sequelize } from 'sequelize';
import type { Config } from '../config';
import { CHANGES_CHANNEL, createChangeFeed, type ChangeFeed } from './change-feed';
import { startEmbeddedPostgres } from './embedded-postgres';
import { migrate } from './migrate';
import { createPreparedStatements, type PreparedStatements } from './prepared-statements';
import { initModels, type Models } from './models';

export type Database = {
  sequelize: Sequelize;
  models: Models;
  /** Named prepared statements on the pool's connections, for the request path's large statements. */
  prepared: PreparedStatements;
  url: string;
  embedded: boolean;
  /** Committed changes to cached rows, as they are announced (opened by the first cache). */
  changes: ChangeFeed;
  close(): Promise<void>;
};

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL in DATA_DIR when it is unset,
 * then brings the schema up to date. There is no sync(): the schema is the migrations'.
 */
export async function openDatabase(config: Config, log?: Log): Promise<Database> {
  const embedded = config.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({
        dataDir: config.DATA_DIR,
        port: config.EMBEDDED_PG_PORT,
        log: (m) => log?.warn({ source: 'embedded-postgres' }, m),
      });
  const url = config.DATABASE_URL ?? embedded!.url;
  const sequelize = new Sequelize(url, {
    dialect: 'postgres',
    logging: false,
    pool: { max: config.DB_POOL_MAX, min: 0, idle: 10_000, acquire: 30_000 },
    define: { underscored: true, timestamps: false },
  });
  try {
    await sequelize.authenticate();
    const applied = await migrate(sequelize);
    if (applied.length) log?.info({ applied }, 'database migrated');
  } catch (error) {
    await sequelize.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
  const changes = createChangeFeed({
    url,
    log: { warn: (obj, msg) => log?.warn(obj, msg) },
    notify: (payload) =>
      sequelize.query('SELECT pg_notify(:channel, :payload)', {
        replacements: { channel: CHANGES_CHANNEL, payload },
      }),
  });
  return {
    sequelize,
    models: initModels(sequelize),
    prepared: createPreparedStatements(sequelize),
    url,
    embedded: embedded !== null,
    changes,
    async close() {
      await changes.stop();
      await sequelize.close();
      await embedded?.stop();
    },
  };
}
