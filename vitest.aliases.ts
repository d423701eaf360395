import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * tsconfig.json's `paths` as Vite aliases, so that tests import `@stablepay/sdk` from its sources
 * as `tsc` and `tsx` do (`npm run sandbox`, the demo). Without them Vite resolves the workspace
 * package to sdk/dist, which exists only after `npm run sdk:build`: absent on a fresh clone.
 */
const root = new URL('.', import.meta.url);
const { compilerOptions } = JSON.parse(fs.readFileSync(new URL('tsconfig.json', root), 'utf8')) as {
  compilerOptions: { paths: Record<string, [string]> };
};

export const TSCONFIG_ALIASES = Object.entries(compilerOptions.paths).map(([name, [target]]) => ({
  // Whole names only: `@stablepay/sdk` must not swallow `@stablepay/sdk/payer`.
  find: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
  replacement: fileURLToPath(new URL(target, root)),
}));
