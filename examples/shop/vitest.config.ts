import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The shop's own tests (shop.test.ts), apart from the repository's: they need `npm run sandbox`. */
export default defineConfig({
  // In your shop, `@stablepay/sdk` from npm; in this repository, the SDK's sources.
  resolve: { alias: { '@stablepay/sdk': fileURLToPath(new URL('../../sdk/src/index.ts', import.meta.url)) } },
  test: { root: fileURLToPath(new URL('.', import.meta.url)), include: ['*.test.ts'], testTimeout: 60_000 },
});
