/**
 * Builds the dashboard (dashboard/src, Vite) into dashboard/dist when it is missing or stale: the
 * sources' hash is kept in dist/.source-hash, so an unchanged tree costs a hash of a few hundred
 * kilobytes and no build. Run by `npm start` (prestart) and by the tests that need the dashboard;
 * `npm run dashboard:build` forces a build.
 *
 * Safe to run from several processes at once (three instances started together): one builds under
 * a lock file while the others wait, and the new dist replaces the old one by a rename, so a running
 * server never serves half a build.
 */
import { createHash } from 'node:crypto';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processAlive as alive } from '../server/lib/process-alive';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
export const DASHBOARD_DIST = path.join(HERE, 'dist');
const STAMP = '.source-hash';
const LOCK = path.join(HERE, '.build.lock');
/** A lock older than this was left by a process that died mid-build. */
const STALE_LOCK_MS = 5 * 60_000;

/** What the build reads: the app, the contract it is typed from, and the tools' versions. */
const SOURCE_DIRS = [path.join(HERE, 'src'), path.join(ROOT, 'contract')];
const SOURCE_FILES = [
  path.join(HERE, 'index.html'),
  path.join(HERE, 'vite.config.ts'),
  fileURLToPath(import.meta.url),
];
const PACKAGES = [
  'vite',
  '@vitejs/plugin-react',
  'react',
  'react-dom',
  'react-router',
  '@tanstack/react-query',
  '@ts-rest/core',
  'zod',
  'qrcode',
];

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? listFiles(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}

/** A hash of everything the build's output depends on. */
export async function sourceHash(): Promise<string> {
  const files = [...(await Promise.all(SOURCE_DIRS.map(listFiles))).flat(), ...SOURCE_FILES].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(path.relative(ROOT, file)).update('\0');
    hash.update(await fs.readFile(file)).update('\0');
  }
  const require = createRequire(import.meta.url);
  for (const name of PACKAGES) {
    let version = 'missing';
    try {
      version = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
    } catch {
      // a package without an exported package.json: its absence is part of the hash too
    }
    hash.update(`${name}@${version}\0`);
  }
  return hash.digest('hex');
}

async function builtHash(): Promise<string | undefined> {
  try {
    return (await fs.readFile(path.join(DASHBOARD_DIST, STAMP), 'utf8')).trim();
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the build lock, waiting for another process's build to end first. */
async function lock(): Promise<() => Promise<void>> {
  for (;;) {
    try {
      const handle = await fs.open(LOCK, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => fs.rm(LOCK, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const stat = await fs.stat(LOCK).catch(() => undefined);
      const holder = Number(await fs.readFile(LOCK, 'utf8').catch(() => ''));
      // A lock whose process is gone (stopped mid-build), or a very old one, is taken over.
      if (stat && (Date.now() - stat.mtimeMs > STALE_LOCK_MS || (holder > 0 && !alive(holder))))
        await fs.rm(LOCK, { force: true });
      else await sleep(200);
    }
  }
}

async function viteBuild(outDir: string) {
  const { build } = await import('vite');
  await build({
    configFile: path.join(HERE, 'vite.config.ts'),
    build: { outDir, emptyOutDir: true },
    logLevel: 'warn',
  });
}

export type BuildResult = { built: boolean; ms: number };

/**
 * Makes sure dashboard/dist holds a build of the current sources (builds only when it does not).
 * `force` builds anyway.
 */
export async function ensureDashboardBuilt(opts: { force?: boolean; log?: (line: string) => void } = {}) {
  const started = performance.now();
  const hash = await sourceHash();
  if (!opts.force && (await builtHash()) === hash) return { built: false, ms: performance.now() - started };
  const unlock = await lock();
  try {
    // Another process may have built it while this one waited for the lock.
    if (!opts.force && (await builtHash()) === hash) return { built: false, ms: performance.now() - started };
    opts.log?.('dashboard: building dashboard/dist (Vite)…');
    const tmp = path.join(HERE, `.dist-${process.pid}-${Date.now()}`);
    const old = `${tmp}-old`;
    try {
      await viteBuild(tmp);
      await fs.writeFile(path.join(tmp, STAMP), `${hash}\n`);
      if (existsSync(DASHBOARD_DIST)) await fs.rename(DASHBOARD_DIST, old);
      await fs.rename(tmp, DASHBOARD_DIST);
    } finally {
      await Promise.all([
        fs.rm(tmp, { recursive: true, force: true }),
        fs.rm(old, { recursive: true, force: true }),
      ]);
    }
    const ms = performance.now() - started;
    opts.log?.(`dashboard: built in ${(ms / 1000).toFixed(1)} s`);
    return { built: true, ms } satisfies BuildResult;
  } finally {
    await unlock();
  }
}

// `tsx dashboard/build.ts [--force]`: what `npm start` (prestart) and `npm run dashboard:build` run.
// Before `npm start` a failed build does not keep the payment service from starting: it says so,
// and /dashboard answers with the previous build (or says it is not built). An explicit build fails.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  ensureDashboardBuilt({ force, log: (line) => console.log(line) }).catch((error: unknown) => {
    console.error('dashboard: the build failed:', error);
    if (force) process.exit(1);
    console.error('dashboard: starting without a fresh dashboard build (npm run dashboard:build to retry)');
  });
}
