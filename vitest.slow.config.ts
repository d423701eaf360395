import { defineConfig } from 'vitest/config';
import { TSCONFIG_ALIASES } from './vitest.aliases';
import { SLOW_SUITES } from './vitest.config';

/**
 * Suites that spawn processes (servers killed with SIGKILL, the demo, the CLI, npm pack and the
 * examples): slower than the rest, so `npm run test:slow`, apart from `npm test`. CI runs both.
 */
export default defineConfig({
  resolve: { alias: TSCONFIG_ALIASES },
  test: {
    include: SLOW_SUITES,
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
  },
});
