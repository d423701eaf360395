import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/support/harness';
import type { Cleanup } from '../lib/cleanup';
import { TSX } from '../lib/paths';
import { progress } from '../lib/progress';
import { answers200, waitFor } from '../lib/wait';
import { readHaproxyStats } from './haproxy';
import { failOnExit, startChild, stopChild, type Child } from './processes';
import type { RunFolder } from './run-folder';
import { CLOSED, HAPROXY_CFG, INSTANCES, START_TIMEOUT_MS } from './settings';

export type Ports = { instances: number[]; lb: number; stats: number };

export async function allocatePorts(): Promise<Ports> {
  const instances: number[] = [];
  for (let i = 0; i < INSTANCES; i++) instances.push(await freePort());
  return { instances, lb: await freePort(), stats: await freePort() };
}

/** Only what is given here, never the caller's environment (it may name a real database). */
function baseEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    ...(process.env.TMPDIR && { TMPDIR: process.env.TMPDIR }),
  };
}

/** Every instance's environment but its port: production, every job on and often, short leases. */
export function instanceEnv(opts: {
  lbUrl: string;
  databaseUrl: string;
  solanaRpcUrl: string;
  mint: string;
}): NodeJS.ProcessEnv {
  return {
    ...baseEnv(),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: opts.lbUrl,
    DATABASE_URL: opts.databaseUrl,
    // Identical on every instance: a token from one is accepted by all, a secret sealed by one is
    // opened by all.
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
    JOBS: 'all',
    JOB_DELIVER_EVENTS_CRON: '*/1 * * * * *',
    JOB_VERIFY_PAYMENTS_CRON: '*/1 * * * * *',
    JOB_SCAN_PAYMENTS_CRON: '*/2 * * * * *',
    JOB_EXPIRE_ORDERS_CRON: '*/2 * * * * *',
    // Work leased by the killed instance is taken over within the run: claims and scan cursors
    // after 10 s, webhook deliveries after their 10 s send timeout plus 5 s.
    JOB_LEASE_SECONDS: '10',
    WEBHOOK_LEASE_GRACE_MS: '5000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    API_RATE_LIMIT_PER_SECOND: '10000',
    SOLANA_RPC_URL: opts.solanaRpcUrl,
    USDT_MINT_SOLANA: opts.mint,
    ETHEREUM_RPC_URL: CLOSED,
    POLYGON_RPC_URL: CLOSED,
    FX_PROVIDER: 'static',
    FX_COINBASE_URL: CLOSED,
    MESSENGER_API_BASE_URL: CLOSED,
  };
}

/** Stops a child's group and takes it off the record. */
async function stopAndForget(folder: RunFolder, child: Child, graceMs?: number): Promise<void> {
  await stopChild(child, graceMs);
  folder.forget(child);
}

/** Starts instance `index` (0-based; tsx server/main.ts) on its port, logging to the run folder. */
export function instanceStarter(
  cleanup: Cleanup,
  folder: RunFolder,
  env: NodeJS.ProcessEnv,
  ports: Ports,
): (index: number) => Child {
  return (index) => {
    if (cleanup.started()) throw new Error('stopping: no instance is started any more');
    const child = startChild(
      {
        name: `instance ${index + 1}`,
        command: TSX,
        args: ['server/main.ts'],
        env: { ...env, PORT: String(ports.instances[index]) },
        logFile: path.join(folder.dir, `instance-${index + 1}.log`),
      },
      folder.remember,
    );
    cleanup.add(child.name, () => stopAndForget(folder, child));
    return child;
  };
}

/** Every instance, once each answers GET /readyz. */
export async function startInstances(
  startInstance: (index: number) => Child,
  ports: Ports,
): Promise<Child[]> {
  progress(`starting ${INSTANCES} instances (tsx server/main.ts) on ports ${ports.instances.join(', ')}`);
  const instances = ports.instances.map((_, i) => startInstance(i));
  await Promise.all(
    instances.map((child, i) =>
      Promise.race([
        waitFor(`${child.name} GET /readyz`, START_TIMEOUT_MS, () =>
          answers200(`http://127.0.0.1:${ports.instances[i]}/readyz`),
        ),
        failOnExit(child),
      ]),
    ),
  );
  return instances;
}

/** haproxy -f deploy/haproxy.cfg in front of the instances, once it has every one of them UP. */
export async function startHaproxy(
  cleanup: Cleanup,
  folder: RunFolder,
  version: string,
  ports: Ports,
): Promise<Child> {
  const lbUrl = `http://127.0.0.1:${ports.lb}`;
  const statsUrl = `http://127.0.0.1:${ports.stats}`;
  progress(`starting haproxy ${version} (haproxy -f deploy/haproxy.cfg -db) on ${lbUrl}`);
  const haproxy = startChild(
    {
      name: 'haproxy',
      command: 'haproxy',
      args: ['-f', HAPROXY_CFG, '-db'],
      env: {
        ...baseEnv(),
        STABLEPAY_LB_BIND: `127.0.0.1:${ports.lb}`,
        STABLEPAY_LB_STATS: `127.0.0.1:${ports.stats}`,
        STABLEPAY_1: `127.0.0.1:${ports.instances[0]}`,
        STABLEPAY_2: `127.0.0.1:${ports.instances[1]}`,
        STABLEPAY_3: `127.0.0.1:${ports.instances[2]}`,
      },
      logFile: path.join(folder.dir, 'haproxy.log'),
    },
    folder.remember,
  );
  cleanup.add('haproxy', () => stopAndForget(folder, haproxy, 5_000));
  await Promise.race([
    waitFor('haproxy with every instance UP', START_TIMEOUT_MS, () => everyInstanceUp(lbUrl, statsUrl)),
    failOnExit(haproxy),
  ]);
  return haproxy;
}

async function everyInstanceUp(lbUrl: string, statsUrl: string): Promise<boolean> {
  const servers = await readHaproxyStats(statsUrl);
  if (servers.length !== INSTANCES || !servers.every((s) => s.status === 'UP'))
    throw new Error(servers.map((s) => `${s.name} ${s.status}`).join(', '));
  const res = await fetch(`${lbUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
  if (res.status !== 200) throw new Error(`GET /readyz through haproxy: ${res.status} ${await res.text()}`);
  return true;
}
