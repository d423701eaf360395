#!/usr/bin/env node
/**
 * The compiled service: `npm run build` builds it; `npm start` and the merchant commands run
 * `node scripts/build.mjs --if-stale` first, which builds only when the sources changed since the
 * last build. Plain Node on purpose: it must run where only the production dependencies are
 * installed (`npm ci --omit=dev`), where it checks and then lets the compiled server start.
 *
 * - What: scripts/build.ts (run with tsx) bundles the server and the merchant CLI into dist/server
 *   and builds the checkout script and the dashboard (dashboard/dist).
 * - When: a hash of the sources (INPUTS) is kept in dist/server/.source-hash. An unchanged tree
 *   costs hashing a few megabytes (tens of milliseconds) and no build.
 * - Without the build tools (devDependencies) a stale or missing build cannot be made: it says
 *   how to deploy instead (build, then install without them) and fails.
 * - Several processes at once (three instances started together): one builds under a lock while
 *   the others wait, and the new dist/server replaces the old one by a rename.
 * - A folder with the build and no sources (an image that copied only dist/) runs what it has.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const OUT = path.join(DIST, 'server');
const STAMP = '.source-hash';
const LOCK = path.join(DIST, '.build.lock');
/** A lock older than this was left by a process that died mid-build. */
const STALE_LOCK_MS = 5 * 60_000;

/** What the build reads (folders are read whole). The lockfile stands for the tools' versions. */
const INPUTS = [
  'server',
  'contract',
  'sdk/src',
  'sdk/package.json',
  'dashboard/src',
  'dashboard/index.html',
  'dashboard/vite.config.ts',
  'dashboard/tsconfig.json',
  'dashboard/build.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'scripts/build.mjs',
  'scripts/build.ts',
];
/** devDependencies the build runs. */
const TOOLS = ['tsx', 'esbuild', 'vite', '@vitejs/plugin-react'];

function listFiles(relative) {
  const full = path.join(ROOT, relative);
  const stat = fs.statSync(full, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [relative];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .flatMap((entry) => listFiles(path.join(relative, entry.name)));
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(listFiles).sort()) {
    hash.update(file.split(path.sep).join('/')).update('\0');
    hash.update(fs.readFileSync(path.join(ROOT, file))).update('\0');
  }
  return hash.digest('hex');
}

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
};

const fresh = (hash) =>
  read(path.join(OUT, STAMP)) === hash && fs.existsSync(path.join(ROOT, 'dashboard/dist/index.html'));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Takes the build lock, waiting for another process's build to end first. */
async function lock() {
  fs.mkdirSync(DIST, { recursive: true });
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(LOCK, { force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const stat = fs.statSync(LOCK, { throwIfNoEntry: false });
      const holder = Number(read(LOCK));
      // A lock whose process is gone (stopped mid-build), or a very old one, is taken over.
      if (stat && (Date.now() - stat.mtimeMs > STALE_LOCK_MS || (holder > 0 && !alive(holder))))
        fs.rmSync(LOCK, { force: true });
      else await sleep(200);
    }
  }
}

function missingTools() {
  return TOOLS.filter((name) => !fs.existsSync(path.join(ROOT, 'node_modules', name, 'package.json')));
}

const NO_TOOLS = (
  missing,
) => `stablepay: dist/server holds no build of these sources, and the build tools are not installed
(${missing.join(', ')}: devDependencies, which \`npm ci --omit=dev\` leaves out).
Either install them and start again:        npm install && npm start
or build first, then drop them (a deployment): npm ci && npm run build && npm ci --omit=dev`;

/** Builds into a fresh folder, then puts it in dist/server's place. Returns the exit code. */
function buildNow(hash, { dashboardOptional }) {
  const started = Date.now();
  const tmp = path.join(DIST, `.server-${process.pid}-${started}`);
  // The child's stdout goes to stderr too: `npm run merchant:list` prints only the list on stdout.
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/build.ts', tmp, ...(dashboardOptional ? ['--dashboard-optional'] : [])],
    { cwd: ROOT, stdio: ['ignore', 2, 2] },
  );
  const code = child.status ?? 1;
  if (code !== 0 && code !== 2) {
    fs.rmSync(tmp, { recursive: true, force: true });
    console.error('stablepay: the build failed (above); dist/server was left as it was');
    return 1;
  }
  // Exit 2: the dashboard failed and the server is built. No stamp: the next start tries again.
  if (code === 0) fs.writeFileSync(path.join(tmp, STAMP), `${hash}\n`);
  const old = `${tmp}-old`;
  if (fs.existsSync(OUT)) fs.renameSync(OUT, old);
  fs.renameSync(tmp, OUT);
  fs.rmSync(old, { recursive: true, force: true });
  console.error(`stablepay: built dist/server in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

async function main(argv) {
  const ifStale = argv.includes('--if-stale');
  if (!fs.existsSync(path.join(ROOT, 'server/main.ts'))) {
    if (fs.existsSync(path.join(OUT, 'main.js'))) return 0;
    console.error('stablepay: neither the sources (server/) nor a build (dist/server) are here');
    return 1;
  }
  const hash = sourceHash();
  if (ifStale && fresh(hash)) return 0;
  const missing = missingTools();
  if (missing.length) {
    console.error(NO_TOOLS(missing));
    return 1;
  }
  const unlock = await lock();
  try {
    // Another process may have built it while this one waited for the lock.
    if (ifStale && fresh(hash)) return 0;
    if (ifStale) console.error('stablepay: the sources changed since the last build: building dist/server…');
    return buildNow(hash, { dashboardOptional: ifStale });
  } finally {
    unlock();
  }
}

process.exitCode = await main(process.argv.slice(2));
