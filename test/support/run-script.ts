import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export type Script = {
  child: ChildProcess;
  output(): string;
  /** Resolves when the output matches (or rejects at the deadline / early exit). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
};

/**
 * Runs a TypeScript file of the repo as its own Node process (`node --import tsx`, so killing the
 * child kills the program itself), collecting stdout and stderr.
 */
export function runScript(file: string, args: string[], env: Record<string, string | undefined>): Script {
  return runCommand(process.execPath, ['--import', 'tsx', file, ...args], env);
}

/**
 * Runs a command in the repo as a user would (`npm run …`, `npx …`), collecting its output.
 * `detached`: in a process group of its own, so that Ctrl-C can be sent to the whole group
 * (`process.kill(-child.pid, 'SIGINT')`) as a terminal sends it.
 */
export function runCommand(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  options: { detached?: boolean } = {},
): Script {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env } as NodeJS.ProcessEnv,
    detached: options.detached ?? false,
  });
  let out = '';
  const listeners = new Set<() => void>();
  const collect = (d: Buffer) => {
    out += d.toString();
    listeners.forEach((l) => l());
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = out.match(pattern);
          if (match) {
            cleanup();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} in ${timeoutMs} ms; output:\n${out}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (listeners.has(check)) {
            check();
            if (listeners.has(check)) {
              cleanup();
              reject(new Error(`exited with ${code} before ${pattern}; output:\n${out}`));
            }
          }
        });
        check();
      });
    },
  };
}
