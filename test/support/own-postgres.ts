import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadEmbeddedPostgres } from '../../server/db/embedded-postgres';
import { freePort } from '../../server/lib/free-port';
import { startTcpProxy } from './tcp-proxy';

const PASSWORD = 'own-postgres';

/**
 * A PostgreSQL of the test's own (never the shared one): stopped, started, told to shut down or to
 * refuse a role, as the fault tests need. Its data lives in a temporary folder removed at the end.
 */
export async function startOwnPostgres() {
  const root = await mkdtemp(path.join(tmpdir(), 'own-postgres-'));
  await chmod(root, 0o755); // as root, PostgreSQL runs as the postgres user, which must reach it
  const dataDir = path.join(root, 'data');
  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  const url = (database = 'postgres', user = 'postgres', password = PASSWORD) =>
    `postgres://${user}:${password}@127.0.0.1:${port}/${database}`;

  /** One statement as the superuser, on a connection of its own. */
  async function admin(sql: string): Promise<pg.QueryResult> {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end().catch(() => {});
    }
  }

  return {
    port,
    url,
    admin,
    /** Stops it (fast shutdown: sessions are ended) and waits until it is gone. */
    stop: () => server.stop(),
    start: () => server.start(),
    /**
     * A smart shutdown: sessions already open go on, new connections are refused with "the
     * database system is shutting down" until the sessions end. Stop it afterwards with stop().
     */
    async beginShutdown() {
      const pid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      process.kill(pid, 'SIGTERM');
    },
    async destroy() {
      await server.stop().catch(() => {});
      await rm(root, { recursive: true, force: true });
    },
  };
}

export type OwnPostgres = Awaited<ReturnType<typeof startOwnPostgres>>;

/**
 * A PostgreSQL of the test's own with an `app` role owning a `stablepay` database, reached through
 * a TCP relay (test/support/tcp-proxy.ts) that can break the way: `url` goes through the relay.
 */
export async function startRelayedPostgres() {
  const own = await startOwnPostgres();
  await own.admin(`CREATE ROLE app LOGIN PASSWORD 'app'`);
  await own.admin('CREATE DATABASE stablepay OWNER app');
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: own.port });
  return {
    own,
    proxy,
    url: `postgres://app:app@127.0.0.1:${proxy.port}/stablepay`,
    async destroy() {
      await proxy.stop();
      await own.destroy();
    },
  };
}
