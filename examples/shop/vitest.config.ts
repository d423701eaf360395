import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { TSCONFIG_ALIASES } from '../../vitest.aliases';

/** The shop's own tests (shop.test.ts), apart from the repository's: they need `npm run sandbox`. */
export default defineConfig({
  // In your shop, `@stablepay/sdk` from npm (drop this line); in this repository, the SDK's sources.
  resolve: { alias: TSCONFIG_ALIASES },
  test: { root: fileURLToPath(new URL('.', import.meta.url)), include: ['*.test.ts'], testTimeout: 60_000 },
});
