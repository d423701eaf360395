import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startEmbeddedPostgres } from '../../test/support/harness';
import { ROOT, TSX } from '../lib/paths';
import { answers200, waitFor } from '../lib/wait';

/** The service's and the bare baselines' HS256 secret. */
export const JWT_SECRET = 'request-path-bench-secret-of-at-least-32-chars';

export type AddCleanup = (what: string, fn: () => Promise<void>) => void;

/** One PostgreSQL; the service and the bare baselines on it, each a process of its own. */
export type PathStack = {
  databaseUrl: string;
  base: string;
  bareBase: string;
  /** The service's process (tsx, whose child runs the server). */
  servicePid: number;
};

export async function startPathStack(cleanup: AddCleanup, progress: (m: string) => void): Promise<PathStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-path-'));
  fs.chmodSync(dataDir, 0o755);
  cleanup('request-path folder', async () =>
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 }),
  );
  progress('request path: starting PostgreSQL, the service and the bare baselines');
  const db = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  cleanup('request-path PostgreSQL', () => db.stop());
  const { base, pid } = await startService(cleanup, db.url);
  const bareBase = await startBareServers(cleanup, db.url);
  return { databaseUrl: db.url, base, bareBase, servicePid: pid };
}

/** The service as in production (tsx server/main.ts), with limits out of the load's way. */
async function startService(
  cleanup: AddCleanup,
  databaseUrl: string,
): Promise<{ base: string; pid: number }> {
  const port = await freePort();
  const service = spawn(TSX, ['server/main.ts'], {
    cwd: ROOT,
    stdio: 'ignore', // request logs are written, as in production; to nowhere
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET,
      DATA_ENCRYPTION_KEY: 'a'.repeat(64),
      LOG_LEVEL: 'info',
      API_RATE_LIMIT_PER_SECOND: '1000000',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
      LOGIN_RATE_LIMIT_MAX: '1000',
      SOLANA_RPC_URL: 'http://127.0.0.1:9',
      POLYGON_RPC_URL: 'http://127.0.0.1:9',
      ETHEREUM_RPC_URL: 'http://127.0.0.1:9',
      // With these, a merchant with a wallet on each network has 8 ways to pay ("all"): USDT and
      // USDC on Solana, BSC and Base, USDT on Polygon and Ethereum. Never contacted by the routes.
      BSC_RPC_URL: 'http://127.0.0.1:9',
      BASE_RPC_URL: 'http://127.0.0.1:9',
      USDC_MINT_SOLANA: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      FX_PROVIDER: 'static',
    },
  });
  cleanup('request-path service', () => stopProcess(service));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/readyz`, 60_000, () => answers200(`${base}/readyz`));
  return { base, pid: service.pid! };
}

/** bare-servers.ts as a child process, once it says it listens. */
async function startBareServers(cleanup: AddCleanup, databaseUrl: string): Promise<string> {
  const port = await freePort();
  const bare = fork(
    path.join(import.meta.dirname, 'bare-servers.ts'),
    [String(port), databaseUrl, JWT_SECRET],
    {
      execPath: TSX,
      stdio: 'ignore',
    },
  );
  cleanup('bare baselines', () => stopProcess(bare));
  await new Promise<void>((resolve, reject) => {
    bare.once('message', () => resolve());
    bare.once('exit', (code) => reject(new Error(`bare servers exited (${code})`)));
  });
  return `http://127.0.0.1:${port}`;
}

/** SIGTERM, and SIGKILL if it is still there 10 s later. */
function stopProcess(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}
