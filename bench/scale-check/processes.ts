import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from '../lib/paths';

/** What the guard undoes if this process is killed before its cleanup is done. */
export type RunRecord = { database?: string; groups: number[] };

/** Process groups of children not known to be gone, for the last-resort kill at exit. */
export const childGroups = new Set<number>();

/** Signals a whole process group; false when it is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * A guard for a run killed outright (SIGKILL; tsx also kills a child that is slow to acknowledge
 * Ctrl-C): a small process of its own holding a pipe from this one. When the pipe closes (this
 * process ended, however), it reads the run's record: if the run folder still lists process
 * groups (the cleanup did not get to the end), it kills them, drops the database and removes the
 * folder. After a normal cleanup the folder is gone (or kept for its logs with nothing listed).
 */
const GUARD = `
const fs = require('node:fs');
const path = require('node:path');
const file = process.argv[1];
process.stdin.resume();
process.stdin.on('end', async () => {
  let record;
  try { record = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { process.exit(0); }
  if (record.groups.length === 0 && !record.database) process.exit(0);
  for (const pgid of record.groups) try { process.kill(-pgid, 'SIGKILL'); } catch {}
  if (record.database) {
    const client = new (require('pg').Client)({ connectionString: process.env.SCALE_ADMIN_URL });
    try {
      await client.connect();
      await client.query('DROP DATABASE IF EXISTS "' + record.database + '" WITH (FORCE)');
    } catch {}
    await client.end().catch(() => {});
  }
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  process.exit(0);
});
`;

export function startGuard(recordFile: string, serverUrl: string): void {
  const guard = spawn(process.execPath, ['-e', GUARD, recordFile], {
    cwd: ROOT,
    env: { SCALE_ADMIN_URL: serverUrl },
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  guard.unref();
  (guard.stdin as unknown as { unref?: () => void } | null)?.unref?.();
}

export type Child = {
  name: string;
  proc: ChildProcess;
  logFile: string;
  exit: Promise<string>;
  exited(): boolean;
};

export type ChildSpec = {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
};

/**
 * A child in a process group of its own (detached): stopping it stops everything it started
 * (tsx runs the server in a second process). Output goes to `logFile`.
 */
export function startChild(spec: ChildSpec, record: (pgid: number) => void): Child {
  const out = fs.openSync(spec.logFile, 'a');
  const proc = spawn(spec.command, spec.args, {
    cwd: ROOT,
    env: spec.env,
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  if (proc.pid !== undefined) record(proc.pid);
  let done = false;
  const exit = new Promise<string>((resolve) => {
    proc.once('error', (error) => {
      done = true;
      resolve(`failed to start: ${error.message}`);
    });
    proc.once('exit', (code, signal) => {
      done = true;
      resolve(signal ? `killed by ${signal}` : `exited with code ${code}`);
    });
  });
  return { name: spec.name, proc, logFile: spec.logFile, exit, exited: () => done };
}

/** SIGTERM to the group (a graceful stop), SIGKILL to whatever of it is left after `graceMs`. */
export async function stopChild(child: Child, graceMs = 10_000): Promise<void> {
  const pgid = child.proc.pid;
  if (pgid === undefined) return;
  if (!child.exited()) {
    signalGroup(pgid, 'SIGTERM');
    await Promise.race([child.exit, sleep(graceMs)]);
  }
  signalGroup(pgid, 'SIGKILL');
}

/** Rejects with the child's last output if it ends (while something else is awaited). */
export function failOnExit(child: Child): Promise<never> {
  return child.exit.then((how) => {
    throw new Error(`${child.name} ${how}:\n${tail(child.logFile)}`);
  });
}

export function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}
