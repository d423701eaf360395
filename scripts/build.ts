/**
 * What `npm run build` builds (scripts/build.mjs decides when, and runs this with tsx):
 *
 *   node --import tsx scripts/build.ts <out-dir> [--dashboard-optional]
 *
 * - the server and the merchant CLI, each bundled by esbuild into one ES module (<out-dir>/main.js,
 *   <out-dir>/merchant.js, with source maps) that imports its packages from node_modules;
 * - the checkout page's script (<out-dir>/checkout.js), which the server used to bundle at run time;
 * - the dashboard, into dashboard/dist (dashboard/build.ts: only when its sources changed).
 *
 * scripts/build.mjs moves <out-dir> to dist/server. The bundles resolve files from where they run
 * (import.meta.url), so dist/server/ sits two folders below the root as server/<area>/ does:
 * server/dashboard/static.ts finds dashboard/dist the same way from either place.
 *
 * The build fails when the server would import a package that is not in package.json's
 * `dependencies`: a production install (`npm ci --omit=dev`) would not have it.
 *
 * Exit codes: 0 built; 1 failed; 2 the server is built but the dashboard's build failed
 * (--dashboard-optional, what `npm start` asks: the payment service starts without a fresh one).
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { ensureDashboardBuilt } from '../dashboard/build';
import { CHECKOUT_BUILD_OPTIONS } from '../server/checkout/bundle';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHECKOUT_FROM_SOURCES = path.join(ROOT, 'server/checkout/bundle.ts');
const CHECKOUT_PREBUILT = path.join(ROOT, 'server/checkout/bundle-prebuilt.ts');

/** Puts bundle-prebuilt.ts (reads checkout.js) where the server imports bundle.ts (runs esbuild). */
const prebuiltCheckout: Plugin = {
  name: 'prebuilt-checkout',
  setup(b) {
    b.onResolve({ filter: /[/\\]bundle(\.ts)?$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path.replace(/\.ts$/, '') + '.ts');
      return target === CHECKOUT_FROM_SOURCES ? { path: CHECKOUT_PREBUILT } : undefined;
    });
  },
};

/** The package a bare import names: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The packages the bundles import (statically or not) that a production install would lack. */
function notInDependencies(metafile: Metafile): string[] {
  const { dependencies = {} } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const missing = new Set<string>();
  for (const output of Object.values(metafile.outputs))
    for (const { path: specifier, external } of output.imports) {
      if (!external || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      if (!(packageOf(specifier) in dependencies)) missing.add(specifier);
    }
  return [...missing].sort();
}

async function buildServer(outDir: string) {
  const { metafile } = await build({
    entryPoints: {
      main: path.join(ROOT, 'server/main.ts'),
      merchant: path.join(ROOT, 'server/cli/merchant.ts'),
    },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Packages stay imports from node_modules (the production install's), not copies.
    packages: 'external',
    sourcemap: true,
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    plugins: [prebuiltCheckout],
    metafile: true,
    logLevel: 'warning',
  });
  if (Object.keys(metafile.inputs).some((input) => path.resolve(ROOT, input) === CHECKOUT_FROM_SOURCES))
    throw new Error('server/checkout/bundle.ts (esbuild at run time) ended up in the compiled server');
  const missing = notInDependencies(metafile);
  if (missing.length)
    throw new Error(
      `the compiled server imports ${missing.join(', ')}, not in package.json's dependencies: ` +
        'a production install (npm ci --omit=dev) would not have it',
    );
}

async function main(argv: string[]): Promise<number> {
  const outDir = argv.find((arg) => !arg.startsWith('--'));
  if (!outDir) {
    console.error('usage: node --import tsx scripts/build.ts <out-dir> [--dashboard-optional]');
    return 1;
  }
  const started = performance.now();
  await Promise.all([
    buildServer(outDir),
    build({ ...CHECKOUT_BUILD_OPTIONS, outfile: path.join(outDir, 'checkout.js') }),
  ]);
  console.error(
    `build: server and checkout script built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  try {
    await ensureDashboardBuilt({ log: (line) => console.error(line) });
  } catch (error) {
    console.error('dashboard: the build failed:', error);
    if (!argv.includes('--dashboard-optional')) return 1;
    console.error('dashboard: starting without a fresh dashboard build (npm run build to retry)');
    return 2;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('build failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
