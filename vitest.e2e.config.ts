import { defineConfig } from 'vitest/config';
import { TSCONFIG_ALIASES } from './vitest.aliases';

/** The checkout in a real Chromium (npm run test:e2e): slower than the rest, so apart from npm test. */
export default defineConfig({
  resolve: { alias: TSCONFIG_ALIASES },
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts', 'test/support/dashboard-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
  },
});
