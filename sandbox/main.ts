/**
 * `npm run sandbox`: the service on local chains of its own, for integrators (DESIGN "Sandbox").
 *
 * Starts Solana (litesvm, USDT and USDC mints) and Hardhat chains for POLYGON (chain id 137, USDT
 * of 6 decimals) and BSC (56, USDT of 18 decimals, a block every second), then the service as
 * `npm start` would (embedded PostgreSQL in DATA_DIR, default ./data-sandbox; PORT and
 * EMBEDDED_PG_PORT honoured) with SANDBOX=true, and the merchant sandbox@example.com with a wallet on
 * each chain. Prints how to sign in, each chain and the wallet keys. Ctrl-C stops everything.
 *
 * The chains live in memory: every start is a fresh chain with new token addresses. The database
 * and the wallet keys (DATA_DIR/sandbox-keys.json) are kept, so the merchant, its API keys and its
 * wallets stay; orders of an earlier start name tokens of chains that are gone.
 */
import { loadConfig } from '../server/config';
import { startServer } from '../server/main';
import { printSandbox } from './print-sandbox';
import { ensureSandboxMerchant } from './sandbox-merchant';
import { loadSandboxKeys } from './sandbox-keys';
import { startSandboxChains } from './start-sandbox-chains';

async function main() {
  const started = Date.now();
  // Always its own embedded database: never a DATABASE_URL that may be a real one.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const dataDir = env.DATA_DIR ?? './data-sandbox';
  const chains = await startSandboxChains(loadSandboxKeys(dataDir));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await server?.stop().catch(() => {});
    await chains.stop().catch(() => {});
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  try {
    const config = loadConfig({
      ...env,
      DATA_DIR: dataDir,
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      // Offline: fixed rates unless a live feed is asked for.
      FX_PROVIDER: env.FX_PROVIDER ?? 'static',
      ...chains.env,
      SANDBOX: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // Scanning and checks at their fastest: a payment is PAID about as soon as it is final.
      JOB_DELIVER_EVENTS_CRON: '* * * * * *',
      JOB_VERIFY_REFUNDS_CRON: '* * * * * *',
      PAYMENT_RECHECK_MS: env.PAYMENT_RECHECK_MS ?? '250',
    });
    server = await startServer(config, { sandbox: chains.chains, clock: chains.clock });
    // Fresh chains: scan positions of an earlier start point past their heads, read them again.
    await server.deps.db.sequelize.query('DELETE FROM scan_cursors');
    await ensureSandboxMerchant(server.deps.db.models, server.url, chains.chains.info());
    printSandbox({
      url: config.PUBLIC_BASE_URL,
      dataDir,
      chains: chains.chains.info(),
      ms: Date.now() - started,
    });
  } catch (error) {
    console.error('sandbox failed to start:', error instanceof Error ? error.message : error);
    await stop(1);
  }
}

void main();
