import { freePort, loadConfig, startServer } from '../../test/support/harness';
import { once } from '../lib/once';
import { progress } from '../lib/progress';
import { benchServerEnv, logInMerchant, type Chains, type Ctx } from '../stack';

/** The database of this part's service, beside the bench's own in the same PostgreSQL. */
const DATABASE = 'bench_detection';

export type WatchingService = { ctx: Ctx; stop: () => Promise<void> };

/**
 * The service as an instance runs it: every background job on its default schedule (the bench's
 * own server runs none), on a database of its own, so the other parts' open orders and webhooks
 * are not its work. It reaches the bench's local chains; ETHEREUM is off (the bench has no chain
 * for it). Logged in as a merchant of its own; `stop` is registered with the cleanup too.
 */
export async function startWatchingService(bench: Ctx): Promise<WatchingService> {
  if (!bench.evm) throw new Error('the local EVM chain was not started');
  progress('detection: starting a server with its jobs on their default schedules');
  await bench.server.deps.db.sequelize.query(`CREATE DATABASE ${DATABASE}`);
  const url = new URL(bench.server.deps.db.url);
  url.pathname = `/${DATABASE}`;
  const chains: Chains = {
    chain: bench.chain,
    mint: bench.mint,
    evm: {
      chain: bench.evm.chain,
      usdt: bench.evm.usdt,
      usdc: bench.evm.usdc,
      x402GasKey: bench.evm.x402GasKey,
    },
  };
  const config = loadConfig({
    ...benchServerEnv(await freePort(), chains),
    DATABASE_URL: url.toString(),
    ETHEREUM_RPC_URL: 'none',
  });
  const starting = startServer(config);
  const stop = once(async () => (await starting.catch(() => null))?.stop());
  bench.addCleanup('detection server', stop);
  const ctx = await logInMerchant(await starting, chains, bench.addCleanup);
  return { ctx, stop };
}
