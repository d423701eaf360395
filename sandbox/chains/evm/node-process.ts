import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Starts hardhat-node.mjs as a child process (one per chain, so several chain ids run side by
 * side) and returns the port its JSON-RPC server listens on. The child exits when our end of its
 * stdin closes, which the OS does when this process dies in any way; the 'exit' hook below also
 * kills it at once on a normal exit.
 */

export type NodeProcess = { port: number; pid: number; kill(): Promise<void> };

const SCRIPT = fileURLToPath(new URL('./hardhat-node.mjs', import.meta.url));
const STARTUP_TIMEOUT_MS = 30_000;
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

export async function startNodeProcess(chainId: number): Promise<NodeProcess> {
  installExitHook();
  // Plain `node` on a .mjs file: no TypeScript loader to start.
  const child = spawn(process.execPath, [SCRIPT, String(chainId)], { stdio: 'pipe' });
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );

  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 10_000) stderr += chunk.toString();
  });
  let port: number;
  try {
    port = await readPort(child, chainId, () => stderr);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  // A forgotten node must not keep the test process alive: the exit hook kills it.
  for (const stream of [child.stdin, child.stdout, child.stderr])
    (stream as unknown as { unref(): void }).unref();
  child.unref();

  return {
    port,
    pid: child.pid!,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.ref(); // or the process may exit before the child's 'exit' event arrives
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The first stdout line of hardhat-node.mjs is {"port":N}. */
function readPort(child: ChildProcess, chainId: number, stderr: () => string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(
      () => reject(new Error(`Hardhat node (chain ${chainId}) did not start in time`)),
      STARTUP_TIMEOUT_MS,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      try {
        resolve((JSON.parse(stdout.slice(0, newline)) as { port: number }).port);
      } catch {
        reject(new Error(`Hardhat node (chain ${chainId}) said: ${stdout.slice(0, 500)}`));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Hardhat node (chain ${chainId}) exited (${signal ?? code}): ${stderr().trim()}`));
    });
  });
}
