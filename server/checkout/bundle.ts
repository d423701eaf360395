import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/**
 * How the checkout script is bundled: client/main.ts with the SDK's payer helpers,
 * @wallet-standard/app and the TRON wallet adapter (TronLink), for browsers. @solana/web3.js stays out: the page lets Wallet Standard
 * wallets send, so the SDK's lazy import of it is never reached. `npm run build` (scripts/build.ts)
 * bundles it with these options ahead of time.
 */
export const CHECKOUT_BUILD_OPTIONS = {
  entryPoints: [fileURLToPath(new URL('./client/main.ts', import.meta.url))],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome100', 'firefox100', 'safari15'],
  minify: true,
  legalComments: 'none',
  external: ['@solana/web3.js'],
  logLevel: 'silent',
} satisfies BuildOptions;

let bundled: Promise<string> | undefined;

/**
 * The checkout script, run from the TypeScript sources (tests, tsx): bundled once per process by
 * esbuild (a devDependency) on first use and kept in memory. The compiled server has none of this:
 * the build puts bundle-prebuilt.ts in this module's place, which serves the script built with it.
 */
export function checkoutScript(): Promise<string> {
  bundled ??= import('esbuild')
    .then(({ build }) => build({ ...CHECKOUT_BUILD_OPTIONS, write: false }))
    .then((result) => result.outputFiles[0]!.text);
  // A failed build is not kept: the next request tries again (and the error reaches the log then).
  bundled.catch(() => (bundled = undefined));
  return bundled;
}
