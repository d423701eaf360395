import type { Config } from './config';
import type { Caches } from './db/caches';
import type { Database } from './db/database';
import type { ChainRegistry } from './chains/registry';
import type { RateProvider } from './fx/rate-provider';
import type { TokenIssuer } from './auth/tokens';
import type { SecretBox } from './lib/secret-box';
import type { Logger } from './lib/logger';
import type { Metrics } from './lib/metrics';
import type { OrderWriter } from './orders/write-created-order';
import type { AttemptRecorder } from './events/attempt-recorder';
import type { SandboxChains } from './sandbox/sandbox-chains';

/** Everything services need, passed in (never imported as globals) so tests can swap pieces. */
export type Deps = {
  config: Config;
  db: Database;
  /** Merchants and wallets as the request path reads them (server/db/caches.ts). */
  cache: Caches;
  logger: Logger;
  clock: () => Date;
  rates: RateProvider;
  chains: ChainRegistry;
  tokens: TokenIssuer;
  secrets: SecretBox;
  metrics: Metrics;
  /** Writes new orders, several in one statement under load (server/orders/write-created-order.ts). */
  writeCreatedOrder: OrderWriter;
  /** Records delivery attempts, several in one statement under load (server/events/attempt-recorder.ts). */
  recordAttempt: AttemptRecorder;
  /** The sandbox's local chains (`npm run sandbox` hands them in); absent on any other instance. */
  sandbox?: SandboxChains;
};
