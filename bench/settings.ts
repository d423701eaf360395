import type { Network } from '../contract';

/** Every request count is fixed here: the run is bounded and the same each time. */
export const SIZES = {
  warmUp: 5,
  createSequential: 200,
  createConcurrent: 300,
  concurrency: 10,
  listingOrders: 5000,
  perPage: 50,
  cursorWalkPages: 20,
  deepPage: 100,
  pageRepeats: 20,
  qr: 50,
  payments: 50,
  scanSmall: 10,
  scanLarge: 1000,
  webhooks: 200,
  wakeups: 20,
  jobBatch: 50,
  evmPayments: 100,
  /** x402: verifies of one payment, and settlements of distinct authorizations (8 at a time). */
  x402Verifies: 100,
  x402Settlements: 100,
  evmScanSmall: 10,
  evmScanLarge: 10_000,
  evmWallets: 100,
  /** More wallets than one eth_getLogs call takes (100 recipients): the calls per range grow. */
  evmWalletsMore: 250,
  /** Issue 30's goal: this many subscriptions due in one minute, billed within it. */
  subscriptionsDue: 10_000,
  /** Issue 31: `npm run sandbox` started afresh this many times, and paid orders per network on it. */
  sandboxStarts: 5,
  sandboxPayments: 10,
} as const;

/** The EVM network benchmarked (its real chain id), and blocks on top of a payment before it is final. */
export const EVM_NETWORK = 'POLYGON' satisfies Network;
export const EVM_CHAIN_ID = 137;
export const EVM_CONFIRMATIONS = 2;
