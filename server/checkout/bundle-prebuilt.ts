import { readFile } from 'node:fs/promises';
import type * as FromSources from './bundle';

/**
 * The compiled server's checkout script (scripts/build.ts bundles this module in place of
 * bundle.ts): the file `npm run build` wrote beside the server's bundle (dist/server/checkout.js),
 * read once and kept in memory. No esbuild at run time.
 */
let script: Promise<string> | undefined;

export const checkoutScript: typeof FromSources.checkoutScript = () => {
  script ??= readFile(new URL('./checkout.js', import.meta.url), 'utf8');
  // A missing file is not kept: the next request tries again (and the error reaches the log then).
  script.catch(() => (script = undefined));
  return script;
};
