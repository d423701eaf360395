import { createServer, type Server } from 'node:http';
import { createApp } from './app';
import { createTokenIssuer } from './auth/tokens';
import { createChainRegistry } from './chains/registry';
import { ConfigError, loadConfig, type Config } from './config';
import { createCaches } from './db/caches';
import { openDatabase } from './db/database';
import { checkEncryptionKey } from './db/encryption-canary';
import type { Deps } from './deps';
import { createRateProvider, rateFeeds } from './fx';
import { answerClientError } from './http/client-errors';
import { createLogger } from './lib/logger';
import { createMetrics } from './lib/metrics';
import { createSecretBox } from './lib/secret-box';
import { instanceSecrets } from './lib/stored-secrets';
import { createOrderWriter } from './orders/write-created-order';
import { createAttemptRecorder } from './events/attempt-recorder';
import { BACKGROUND_JOBS } from './background-jobs';
import { startJobs } from './jobs/scheduler';

/** Everything the app and the jobs share, built once. */
export async function buildDeps(config: Config, overrides: Partial<Deps> = {}): Promise<Deps> {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const clock = overrides.clock ?? (() => new Date());
  // SANDBOX=true is what `npm run sandbox` sets beside the chains it hands in; alone it would be an
  // instance that says it is a sandbox and has no chains to move money on.
  if (config.sandbox !== Boolean(overrides.sandbox))
    throw new ConfigError(
      config.sandbox
        ? 'SANDBOX=true is set by `npm run sandbox`, which starts the local chains: run that instead'
        : 'sandbox chains were given to an instance without SANDBOX=true',
    );
  // Given, or generated once and kept in DATA_DIR (never a value written in the code).
  const keys = instanceSecrets({
    dataDir: config.DATA_DIR,
    jwtSecret: config.JWT_SECRET,
    encryptionKey: config.encryptionKey,
  });
  if (keys.file) {
    const unset = [!config.JWT_SECRET && 'JWT_SECRET', !config.encryptionKey && 'DATA_ENCRYPTION_KEY'];
    logger.info(
      { file: keys.file },
      `${unset.filter(Boolean).join(' and ')} not set: ${keys.created ? 'generated in' : 'read from'} ${keys.file} ` +
        '(every instance on this database needs the same values)',
    );
  }
  const secrets = overrides.secrets ?? createSecretBox(keys.encryptionKey);
  const db = overrides.db ?? (await openDatabase(config, logger));
  try {
    await checkEncryptionKey(
      db.sequelize,
      secrets,
      config.encryptionKey ? 'set in the environment' : `kept in ${keys.file}`,
    );
  } catch (error) {
    if (!overrides.db) await db.close();
    throw error;
  }
  const metrics = overrides.metrics ?? createMetrics();
  return {
    config,
    logger,
    clock,
    db,
    metrics,
    writeCreatedOrder: overrides.writeCreatedOrder ?? createOrderWriter({ db, clock, config, metrics }),
    recordAttempt: overrides.recordAttempt ?? createAttemptRecorder({ db, clock, config, metrics }),
    cache: overrides.cache ?? createCaches(db),
    rates: overrides.rates ?? createRateProvider(config, clock),
    chains:
      overrides.chains ??
      createChainRegistry(config, {
        onTokenRefused: (network, message) => logger.error({ network }, message),
        log: logger,
      }),
    tokens: overrides.tokens ?? createTokenIssuer(keys.jwtSecret, config.JWT_TTL, clock),
    secrets,
    ...(overrides.sandbox ? { sandbox: overrides.sandbox } : {}),
  };
}

export async function startServer(config: Config, overrides: Partial<Deps> = {}) {
  const deps = await buildDeps(config, overrides);
  const app = createApp(deps);
  // Slow clients are cut off in bounded time (408), checked every second rather than Node's 30 s.
  const server: Server = createServer(
    {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 1000,
    },
    app,
  );
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  // Each token's decimals against its contract, in the background: a link needs no RPC, and a
  // network that cannot be reached now is checked again by the scanner's runs.
  for (const chain of deps.chains.all()) chain.verifyTokens().catch(() => {});
  const jobs = startJobs(deps, BACKGROUND_JOBS);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  return {
    deps,
    server,
    jobs,
    url: `http://127.0.0.1:${port}`,
    /** Graceful: no new jobs or requests, runs in progress finish, then the database closes. */
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await jobs.stop();
      await closed;
      await deps.db.close();
    },
  };
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const running = await startServer(config);
  const { logger } = running.deps;
  logger.info(
    {
      url: config.PUBLIC_BASE_URL,
      database: running.deps.db.embedded ? `embedded (${config.DATA_DIR})` : 'DATABASE_URL',
      fxFeeds: rateFeeds(config),
    },
    `stablepay listening on port ${config.PORT}; API reference at ${config.PUBLIC_BASE_URL}/docs`,
  );
  const [feed, ...fallbacks] = rateFeeds(config);
  logger.info(
    { fxFeeds: rateFeeds(config) },
    feed === 'static'
      ? 'quotes are priced at the fixed FX_STATIC_RATES (static feed): not live rates'
      : `quotes are priced by the ${feed} feed${fallbacks.length ? `, falling back to ${fallbacks.join(', ')}` : ''}`,
  );
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error('stablepay failed to start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
