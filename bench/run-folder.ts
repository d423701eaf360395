import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive as isAlive } from '../server/lib/process-alive';

const TEMP_PREFIX = 'stablepay-bench-';
/** Names the process a temporary folder belongs to (see removeAbandonedRuns). */
const OWNER_FILE = 'bench-owner.pid';

/** A folder of our own that the `postgres` OS user (used when running as root) can enter. */
export function makeRunFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  return dir;
}

function readPid(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The command line of a process, or null when it is gone or cannot be read. */
function commandLine(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    try {
      return execFileSync('ps', ['-p', String(pid), '-o', 'args='], { encoding: 'utf8' });
    } catch {
      return null;
    }
  }
}

/**
 * The embedded PostgreSQL normally stops with the server. If one still runs on `dataDir` (the run
 * was interrupted while it started, say), stop it by the pid it wrote there, once that pid is
 * seen to be a postgres of this folder (a stale file's pid may belong to anything by now).
 */
export async function stopLeftoverPostgres(dataDir: string): Promise<void> {
  const databaseDir = path.join(dataDir, 'postgres');
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  const pid = readPid(pidFile);
  if (pid === null || !commandLine(pid)?.includes(databaseDir)) return;
  try {
    process.kill(pid, 'SIGINT'); // PostgreSQL's fast shutdown
  } catch {
    return; // already gone
  }
  for (let waited = 0; isAlive(pid) && waited < 10_000; waited += 100) await sleep(100);
}

/**
 * A run killed outright cannot clean up after itself (tsx sends SIGKILL when its child does not
 * acknowledge a Ctrl-C within 60 ms, as can happen while the event loop is busy): the next run
 * stops the PostgreSQL and removes the folder of every earlier run whose process is gone.
 */
export async function removeAbandonedRuns(): Promise<number> {
  let removed = 0;
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const dir = path.join(os.tmpdir(), name);
    const owner = readPid(path.join(dir, OWNER_FILE));
    if (owner === null || isAlive(owner)) continue; // running, or not ours to judge
    await stopLeftoverPostgres(dir);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    removed++;
  }
  return removed;
}
