/** What the long-running scripts (bench, scale:check) undo on the way out, whatever happened. */

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

export type Cleanup = {
  add(name: string, step: () => Promise<void>): void;
  run(): Promise<string[]>;
  /** True once run() was called: start nothing new. */
  started(): boolean;
};

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Steps to undo, run last-added first, once (a failure and Ctrl-C may both ask), steps added
 * meanwhile included; each step gets `stepTimeoutMs` so a stuck one cannot keep the others (or
 * the process) waiting. run() returns the failures.
 */
export function createCleanup(stepTimeoutMs: number): Cleanup {
  const steps: { name: string; step: () => Promise<void> }[] = [];
  let running: Promise<string[]> | undefined;
  const runAll = async () => {
    const failures: string[] = [];
    for (let next = steps.pop(); next; next = steps.pop()) {
      const { name, step } = next;
      try {
        await withTimeout(step(), stepTimeoutMs, name);
      } catch (error) {
        failures.push(`${name}: ${errorMessage(error)}`);
      }
    }
    return failures;
  };
  return {
    add: (name, step) => void steps.push({ name, step }),
    run: () => (running ??= runAll()),
    started: () => running !== undefined,
  };
}

/** Runs the cleanup and turns its outcome into the exit code (1 when a step failed). */
export function finisher(cleanup: Cleanup) {
  return async (code: number) => {
    const failures = await cleanup.run();
    for (const failure of failures) console.error(`cleanup failed: ${failure}`);
    return failures.length > 0 ? 1 : code;
  };
}

/**
 * Ctrl-C or SIGTERM: say so, run the cleanup, exit 130/143. `interrupted` tells the run that what
 * fails next is the cleanup pulling the stack away, not a finding. `on`, not `once`: tsx may relay
 * a signal a second time, and a signal without a listener would end the process in the middle of
 * the cleanup.
 */
export function stopOnSignals(
  finish: (code: number) => Promise<number>,
  progress: (message: string) => void,
): { interrupted: boolean } {
  const run = { interrupted: false };
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    process.on(signal, () => {
      if (run.interrupted) return;
      run.interrupted = true;
      progress(`${signal}: stopping and cleaning up`);
      void finish(code).then((c) => process.exit(c));
    });
  return run;
}
