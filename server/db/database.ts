import { Sequelize } from 'sequelize';
import type { Config } from '../config';
import { CHANGES_CHANNEL, createChangeFeed, type ChangeFeed } from './change-feed';
import type { ConnectionLimits } from './listen';
import { startEmbeddedPostgres } from './embedded-postgres';
import { migrate, type MigrationNotice } from './migrate';
import { createPreparedStatements, type PreparedStatements } from './prepared-statements';
import { initModels, type Models } from './models';

export type Database = {
  sequelize: Sequelize;
  models: Models;
  /** Named prepared statements on the pool's connections, for the request path's large statements. */
  prepared: PreparedStatements;
  url: string;
  /** The bounds every connection opens with, for connections of its own (LISTEN). */
  limits: ConnectionLimits;
  embedded: boolean;
  /** Committed changes to cached rows, as they are announced (opened by the first cache). */
  changes: ChangeFeed;
  close(): Promise<void>;
};

/** How long after PostgreSQL's own statement timeout the client stops waiting for any answer. */
const CLIENT_GRACE_MS = 500;

/**
 * Every wait on a connection is bounded (pg's names): opening it; a statement, by PostgreSQL
 * (statement_timeout, when the server is slow) and by the client CLIENT_GRACE_MS later
 * (query_timeout, when no answer comes at all: a partition drops packets without a reset, and
 * TCP keepalive never probes a connection with a statement unanswered); a transaction left idle.
 */
export function connectionLimits(
  config: Pick<Config, 'DB_CONNECT_TIMEOUT_MS' | 'DB_STATEMENT_TIMEOUT_MS'>,
): ConnectionLimits {
  return {
    connectionTimeoutMillis: config.DB_CONNECT_TIMEOUT_MS,
    statement_timeout: config.DB_STATEMENT_TIMEOUT_MS,
    query_timeout: config.DB_STATEMENT_TIMEOUT_MS + CLIENT_GRACE_MS,
    idle_in_transaction_session_timeout: config.DB_STATEMENT_TIMEOUT_MS * 2,
    keepAlive: true,
  };
}

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
  const limits = connectionLimits(config);
  const sequelize = new Sequelize(url, {
    dialect: 'postgres',
    logging: false,
    pool: { max: config.DB_POOL_MAX, min: 0, idle: 10_000, acquire: config.DB_ACQUIRE_TIMEOUT_MS },
    dialectOptions: limits,
    define: { underscored: true, timestamps: false },
  });
  try {
    await sequelize.authenticate();
    const notices: MigrationNotice[] = [];
    const applied = await migrate(sequelize, 'up', notices);
    if (applied.length) log?.info({ applied }, 'database migrated');
    for (const { migration, message, data } of notices)
      log?.warn({ migration, ...data }, `migration notice: ${message}`);
  } catch (error) {
    await sequelize.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
  const changes = createChangeFeed({
    url,
    limits,
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
    limits,
    embedded: embedded !== null,
    changes,
    async close() {
      await changes.stop();
      await sequelize.close();
      await embedded?.stop();
    },
  };
}
