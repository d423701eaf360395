import { defineConfig } from 'vitest/config';
import { TSCONFIG_ALIASES } from './vitest.aliases';

/** Process-spawning and long suites: `npm run test:slow` (vitest.slow.config.ts), not `npm test`. */
export const SLOW_SUITES = [
  'test/integration/events-instances.test.ts',
  'test/integration/demo.test.ts',
  'test/integration/merchant-cli.test.ts',
  'test/integration/examples.test.ts',
  'test/sdk/packaging.test.ts',
  // Not a process of its own, but 1,500 order creations: with the slow ones.
  'test/integration/unique-amounts.test.ts',
  // 12,000 generated hostile requests over every route (under a minute on 2 cores).
  'test/integration/fuzz.test.ts',
  // A PostgreSQL of its own, stopped, partitioned and restarted under traffic.
  'test/integration/database-faults.test.ts',
  'test/integration/network-isolation.test.ts',
  // Every database connection black-holed for 12 s under steady traffic, on the default timeouts.
  'test/integration/database-partition.test.ts',
  // Servers on the embedded database killed with SIGKILL and started again.
  'test/integration/embedded-crash.test.ts',
  // npm run build, and its output started with only the production dependencies.
  'test/integration/build.test.ts',
  // 1,000 subscriptions and reads at 50 calls a second: about 45 s.
  'test/integration/solana-budget.test.ts',
  // npm run sandbox as a user runs it: its chains, embedded PostgreSQL and service, stopped by SIGINT.
  'test/integration/sandbox-cli.test.ts',
  // The example shop's own vitest suite (examples/shop/) against npm run sandbox, each a process.
  'test/integration/example-shop.test.ts',
];

export default defineConfig({
  resolve: { alias: TSCONFIG_ALIASES },
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests are slow: their own command (npm run test:e2e, vitest.e2e.config.ts).
    exclude: ['test/e2e/**', 'node_modules/**', ...SLOW_SUITES],
    globalSetup: ['test/support/global-setup.ts', 'test/support/dashboard-setup.ts'],
    setupFiles: ['test/support/each-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one fewer worker than cores: one on a 2-core machine, where a file spends
    // most of its time waiting on chains, timers and the database (8.9 min at 1 worker, 4.5 at 3).
    // Each file has a database of its own, so files running side by side do not meet.
    maxWorkers: 3,
    // A worker imports the server once for all the files it runs (each file imported it anew: a
    // third of the suite's time, 438 s of 1,380 worker-seconds). What is a file's own (its database)
    // lives in test/support/file-scope.ts, emptied before each file by the setup file; each file
    // stops what it starts. 586 s -> 356 s on 2 cores.
    isolate: false,
    // As many workers kept as started: below that, Vitest 3.2's pool ends a worker as soon as it is
    // idle, and without isolation that ending can reject unhandled ("Terminating worker thread",
    // vitest#8133), failing a run whose tests all passed.
    minWorkers: 3,
    env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
  },
});
