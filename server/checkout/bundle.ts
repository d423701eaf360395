import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRY = fileURLToPath(new URL('./client/main.ts', import.meta.url));

let bundled: Promise<string> | undefined;

/**
 * The checkout script: client/main.ts with the SDK's payer helpers and @wallet-standard/app, bundled
 * once per process by esbuild (a dependency, also tsx's) on first use and kept in memory, so the
 * service serves its own assets with no build step and no CDN. @solana/web3.js stays out: the page
 * lets Wallet Standard wallets send, so the SDK's lazy import of it is never reached.
 */
export function checkoutScript(): Promise<string> {
  bundled ??= build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    external: ['@solana/web3.js'],
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text);
  // A failed build is not kept: the next request tries again (and the error reaches the log then).
  bundled.catch(() => (bundled = undefined));
  return bundled;
}
