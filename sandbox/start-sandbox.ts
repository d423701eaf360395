import { loadConfig } from '../server/config';
import { freePort } from '../server/lib/free-port';
import { startServer } from '../server/main';
import { ensureSandboxMerchant } from './sandbox-merchant';
import { loadSandboxKeys } from './sandbox-keys';
import { startSandboxChains } from './start-sandbox-chains';

/**
 * What makes the service a sandbox besides its chains' settings: the sandbox routes, webhooks to the
 * integrator's own machine, and deliveries and refund checks every second (a payment is PAID, and
 * its webhook sent, about as soon as it is final). The tests' sandbox stack starts it so too.
 */
export const SANDBOX_SERVICE_ENV = {
  SANDBOX: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  JOB_DELIVER_EVENTS_CRON: '* * * * * *',
  JOB_VERIFY_REFUNDS_CRON: '* * * * * *',
} as const;

/**
 * The sandbox (DESIGN "Sandbox"): its local chains, the service over them with SANDBOX=true as
 * `npm start` would run it (embedded PostgreSQL in DATA_DIR, default ./data-sandbox; PORT and
 * EMBEDDED_PG_PORT honoured), and the merchant sandbox@example.com with a wallet on each chain.
 * What `npm run sandbox` and `npm run demo` start; `stop()` stops all of it.
 */
export async function startSandbox(environment: NodeJS.ProcessEnv) {
  const started = Date.now();
  // Always its own embedded database: never a DATABASE_URL that may be a real one.
  const { DATABASE_URL: _ignored, ...env } = environment;
  const dataDir = env.DATA_DIR ?? './data-sandbox';
  // PORT=0: a free port chosen now, so that the links the service gives (PUBLIC_BASE_URL) name it.
  const port = env.PORT === '0' ? String(await freePort()) : env.PORT;
  // SANDBOX_TRON=false: no TRON chain (it is the slowest to start), TRON off in the service.
  const chains = await startSandboxChains(loadSandboxKeys(dataDir), { tron: env.SANDBOX_TRON !== 'false' });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const stop = async () => {
    await server?.stop().catch(() => {});
    await chains.stop().catch(() => {});
  };
  try {
    const config = loadConfig({
      ...env,
      PORT: port,
      // Its merchant's password is public: reachable from this machine only unless HOST says otherwise.
      HOST: env.HOST ?? '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      // Offline: fixed rates unless a live feed is asked for.
      FX_PROVIDER: env.FX_PROVIDER ?? 'static',
      PAYMENT_RECHECK_MS: env.PAYMENT_RECHECK_MS ?? '250',
      // TRON has no push notice of new transfers: its scan polls, here at its block time.
      SCAN_POLL_SECONDS: env.SCAN_POLL_SECONDS ?? '3',
      ...chains.env,
      ...SANDBOX_SERVICE_ENV,
    });
    server = await startServer(config, { sandbox: chains.chains, clock: chains.clock });
    // Fresh chains: scan positions of an earlier start point past their heads, read them again.
    await server.deps.db.sequelize.query('DELETE FROM scan_cursors');
    await ensureSandboxMerchant(server.deps.db.models, server.url, chains.chains.info());
    return {
      /** The service's public URL (PUBLIC_BASE_URL); `server.url` is its 127.0.0.1 address. */
      url: config.PUBLIC_BASE_URL,
      dataDir,
      server,
      chains: chains.chains.info(),
      ms: Date.now() - started,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
