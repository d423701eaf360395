import type { PublicKey } from '@solana/web3.js';
import {
  createMerchant,
  loadConfig,
  openDatabase,
  startLocalSolana,
  startWebhookReceiver,
  type Database,
  type LocalSolana,
} from '../../test/support/harness';
import { errorMessage, type Cleanup } from '../lib/cleanup';
import { progress } from '../lib/progress';
import { adminQuery, databaseUrl, dropDatabase, select } from './database';
import { haproxyVersion } from './haproxy';
import { allocatePorts, instanceEnv, instanceStarter, startHaproxy, startInstances } from './instances';
import type { Child } from './processes';
import { createRunFolder, type RunState } from './run-folder';
import { EMAIL, PASSWORD } from './settings';

export type Stack = {
  dir: string;
  db: Database;
  merchantId: string;
  chain: LocalSolana;
  mint: PublicKey;
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  instances: Child[];
  ports: number[];
  haproxy: Child;
  lbUrl: string;
  statsUrl: string;
  startInstance(index: number): Child;
  /** After a child's whole group was killed. */
  forget(child: Child): void;
  haproxyVersion: string;
  postgresVersion: string;
};

/**
 * The run's folder and database, the local chain and webhook receiver, the instances and HAProxy
 * in front of them; each registered with `cleanup` as it starts.
 */
export async function setUp(cleanup: Cleanup, serverUrl: string, state: RunState): Promise<Stack> {
  const version = haproxyVersion();
  if (!version) throw new Error('haproxy is not installed'); // checked in main() already
  const folder = createRunFolder(cleanup, serverUrl, state);
  const database = `stablepay_scale_${process.pid}_${Date.now()}`;
  folder.recordDatabase(database);
  const { db, runUrl, merchantId, postgresVersion } = await createRunDatabase(cleanup, serverUrl, database);
  const { chain, mint, receiver } = await startLocalServices(cleanup);

  const ports = await allocatePorts();
  const lbUrl = `http://127.0.0.1:${ports.lb}`;
  const env = instanceEnv({ lbUrl, databaseUrl: runUrl, solanaRpcUrl: chain.url, mint: mint.toBase58() });
  const startInstance = instanceStarter(cleanup, folder, env, ports);
  const instances = await startInstances(startInstance, ports);
  const haproxy = await startHaproxy(cleanup, folder, version, ports);
  return {
    dir: folder.dir,
    db,
    merchantId,
    chain,
    mint,
    receiver,
    instances,
    ports: ports.instances,
    haproxy,
    lbUrl,
    statsUrl: `http://127.0.0.1:${ports.stats}`,
    startInstance,
    forget: folder.forget,
    haproxyVersion: version,
    postgresVersion,
  };
}

/** A fresh database on the server, the schema the service makes on it, and the merchant. */
async function createRunDatabase(cleanup: Cleanup, serverUrl: string, database: string) {
  progress(`creating database ${database} on ${new URL(serverUrl).host}`);
  await adminQuery(serverUrl, `CREATE DATABASE "${database}"`);
  cleanup.add('database', () => dropDatabase(serverUrl, database));
  const runUrl = databaseUrl(serverUrl, database);

  const db = await openDatabase(
    loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATABASE_URL: runUrl }),
  ).catch((error: unknown) => {
    throw new Error(`cannot open ${database}: ${errorMessage(error)}`);
  });
  cleanup.add('database connection', () => db.close());
  const [pgVersion] = await select<{ server_version: string }>(db, 'SHOW server_version');
  const merchant = await createMerchant(db.models, { email: EMAIL, password: PASSWORD, name: 'Scale Shop' });
  return { db, runUrl, merchantId: merchant.id, postgresVersion: pgVersion?.server_version ?? '?' };
}

async function startLocalServices(cleanup: Cleanup) {
  progress('starting the local Solana chain and the webhook receiver');
  const chain = await startLocalSolana();
  cleanup.add('local Solana chain', () => chain.stop());
  const mint = await chain.createMint();
  const receiver = await startWebhookReceiver();
  cleanup.add('webhook receiver', () => receiver.stop());
  return { chain, mint, receiver };
}
