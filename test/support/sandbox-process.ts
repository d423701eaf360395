import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';
import { runCommand, runScript, type Script } from './run-script';

export type SandboxProcess = Script & {
  url: string;
  dataDir: string;
  /** Resolves once it printed that it is ready: the match, its own start time in seconds as [1]. */
  ready(timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Ctrl-C: SIGINT to the program (to its whole process group when started through npm). */
  interrupt(): void;
  /** What is still running of it: its pid if alive, and any process naming its data directory. */
  leftovers(): string;
  /** On the way out, whatever happened: Ctrl-C, SIGKILL after 15 s, the data directory removed. */
  dispose(): Promise<void>;
};

/**
 * `npm run sandbox` as a user runs it, on a fresh temporary DATA_DIR and free ports, ignoring a
 * DATABASE_URL (CI sets one). By default the program as its own Node process (so that SIGINT reaches
 * it); `viaNpm`: `npm run sandbox` itself, in a process group of its own, npm and tsx included.
 */
export async function startSandboxProcess(options: { viaNpm?: boolean } = {}): Promise<SandboxProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-sandbox-'));
  // The embedded PostgreSQL runs as another user when started by root.
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const env = {
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/never',
    NODE_ENV: 'development',
  };
  const script = options.viaNpm
    ? runCommand('npm', ['run', '--silent', 'sandbox'], env, { detached: true })
    : runScript('sandbox/main.ts', [], env);
  const pid = script.child.pid!;
  const alive = () => script.child.exitCode === null && script.child.signalCode === null;
  const signal = (name: NodeJS.Signals) =>
    options.viaNpm ? process.kill(-pid, name) : script.child.kill(name);
  const interrupt = () => void signal('SIGINT');
  return {
    ...script,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    ready: (timeoutMs = 90_000) => script.waitFor(/sandbox ready in ([\d.]+) s/, timeoutMs),
    interrupt,
    leftovers() {
      try {
        // The embedded PostgreSQL names the data directory on its command line.
        return `${alive() ? pid : ''} ${execFileSync('pgrep', ['-f', dataDir]).toString().trim()}`.trim();
      } catch {
        return alive() ? String(pid) : ''; // pgrep: no match
      }
    },
    async dispose() {
      if (alive()) {
        interrupt();
        const killed = setTimeout(() => signal('SIGKILL'), 15_000);
        await script.exited;
        clearTimeout(killed);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
