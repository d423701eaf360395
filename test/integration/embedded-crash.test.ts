import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { runScript, type Script } from '../support/run-script';
import { until } from '../support/until';

/**
 * A server killed with SIGKILL leaves its embedded PostgreSQL running (nothing of the server is
 * left to stop it). The next server on that DATA_DIR takes it over and stops it on shutdown.
 */

const servers: Script[] = [];
const folders: string[] = [];
afterAll(() => {
  servers.forEach((server) => server.child.kill('SIGKILL'));
  // A failed run may have left a PostgreSQL behind: stop it with the folder's own data directory.
  for (const dir of folders) {
    for (const pid of postgresOf(dir)) process.kill(pid, 'SIGINT');
  }
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** The pids of the postmasters started on `dataDir` (their command line names the folder). */
function postgresOf(dataDir: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', path.join(dataDir, 'postgres')], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

async function startServer(dataDir: string) {
  const port = await freePort();
  // DATABASE_URL is set in CI: unset here, so the server uses the folder's embedded database.
  const server = runScript('server/main.ts', [], {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    EMBEDDED_PG_PORT: '',
    PORT: String(port),
    LOG_LEVEL: 'info',
  });
  servers.push(server);
  await until(
    'the server to answer /readyz',
    () =>
      fetch(`http://127.0.0.1:${port}/readyz`)
        .then((res) => res.ok)
        .catch(() => false),
    60_000,
    200,
  );
  return server;
}

describe('embedded PostgreSQL after a server killed with SIGKILL', () => {
  it('is taken over by the next server on the folder and stopped when that one stops', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-crash-'));
    fs.chmodSync(dataDir, 0o755);
    folders.push(dataDir);

    const killed = await startServer(dataDir);
    killed.child.kill('SIGKILL');
    await killed.exited;
    // What the issue is about: the database outlives the killed server.
    expect(postgresOf(dataDir)).toHaveLength(1);

    const next = await startServer(dataDir);
    expect(postgresOf(dataDir)).toHaveLength(1);
    next.child.kill('SIGTERM');
    expect(await next.exited, next.output()).toBe(0);
    // The graceful stop waited for the database to stop: nothing of it remains.
    expect(postgresOf(dataDir)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
