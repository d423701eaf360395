import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build as esbuild } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { ROOT } from '../support/run-script';
import { until } from '../support/until';

/**
 * `npm run build` (scripts/build.mjs): what `npm start` runs. Its output starts and answers with
 * nothing but the production dependencies installed, and a second start does not build again.
 */

const OUT = path.join(ROOT, 'dist/server');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; link?: boolean }>;
};

const folders: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  children.forEach((child) => child.kill('SIGKILL'));
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  folders.push(dir);
  return dir;
}

function build(args: string[] = [], cwd = ROOT) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [path.join(cwd, 'scripts/build.mjs'), ...args], {
    cwd,
    encoding: 'utf8',
  });
  return { code: run.status, out: `${run.stdout}${run.stderr}`, ms: performance.now() - started };
}

/**
 * A copy of the build in a folder whose node_modules holds only what `npm ci --omit=dev` installs
 * (links to this tree's packages the lockfile does not mark dev). Run with --preserve-symlinks,
 * packages resolve their own imports there too: a devDependency imported anywhere is not found.
 */
function productionInstall(): string {
  const dir = tempDir('stablepay-prod-');
  fs.cpSync(OUT, path.join(dir, 'dist/server'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'dashboard/dist'), path.join(dir, 'dashboard/dist'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!/^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) || entry.dev || entry.link) continue;
    if (!fs.existsSync(path.join(ROOT, key))) continue; // an optional package of another platform
    fs.mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
    fs.symlinkSync(path.join(ROOT, key), path.join(dir, key), 'dir');
  }
  return dir;
}

function runCompiled(dir: string, file: string, args: string[], env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--preserve-symlinks', '--enable-source-maps', path.join(dir, 'dist/server', file), ...args],
    { cwd: dir, env: { ...process.env, DATABASE_URL: '', EMBEDDED_PG_PORT: '', ...env } },
  );
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

/** The modules the compiled files import, statically or not, as esbuild reads them. */
async function importsOf(files: string[]): Promise<string[]> {
  const { metafile } = await esbuild({
    entryPoints: files,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    write: false,
    outdir: 'unused',
    metafile: true,
    logLevel: 'silent',
  });
  const found = new Set<string>();
  for (const output of Object.values(metafile.outputs))
    for (const { path: name, external } of output.imports) if (external) found.add(name);
  return [...found];
}

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('npm run build', () => {
  let first: ReturnType<typeof build>;
  beforeAll(() => {
    first = build();
  }, 180_000);

  it('compiles the server, the CLI and the checkout script into dist/server, with source maps', () => {
    expect(first.code, first.out).toBe(0);
    for (const file of [
      'main.js',
      'main.js.map',
      'merchant.js',
      'merchant.js.map',
      'checkout.js',
      '.source-hash',
    ])
      expect(fs.existsSync(path.join(OUT, file)), file).toBe(true);
    expect(fs.readFileSync(path.join(OUT, 'main.js'), 'utf8')).toMatch(
      /\/\/# sourceMappingURL=main\.js\.map\s*$/,
    );
    expect(fs.existsSync(path.join(ROOT, 'dashboard/dist/index.html'))).toBe(true);
  });

  it('imports nothing at run time but Node built-ins and the dependencies', async () => {
    const imported = await importsOf(['main.js', 'merchant.js'].map((file) => path.join(OUT, file)));
    expect(imported).toContain('express');
    const foreign = imported.filter(
      (name) =>
        !name.startsWith('node:') && !builtinModules.includes(name) && !(packageOf(name) in pkg.dependencies),
    );
    expect(foreign).toEqual([]);
    // The checkout script is built ahead: no esbuild (a devDependency) in the server.
    expect(imported).not.toContain('esbuild');
  });

  it('builds again only when the sources changed (what npm start runs first)', () => {
    const mtime = fs.statSync(path.join(OUT, 'main.js')).mtimeMs;
    const again = build(['--if-stale']);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toBe('');
    expect(fs.statSync(path.join(OUT, 'main.js')).mtimeMs).toBe(mtime);
    // A stamp of other sources: the next start builds.
    fs.writeFileSync(path.join(OUT, '.source-hash'), 'of other sources\n');
    const stale = build(['--if-stale']);
    expect(stale.code, stale.out).toBe(0);
    expect(stale.out).toMatch(/built dist\/server/);
    expect(build(['--if-stale']).out).toBe('');
  }, 180_000);

  it('starts and answers /readyz with only the production dependencies installed', async () => {
    expect(first.code, first.out).toBe(0);
    const dir = productionInstall();
    const port = await freePort();
    const env = { DATA_DIR: path.join(dir, 'data'), PORT: String(port), LOG_LEVEL: 'warn' };
    const server = runCompiled(dir, 'main.js', [], env);
    const base = `http://127.0.0.1:${port}`;
    await until(
      'the compiled server to answer /readyz',
      () =>
        fetch(`${base}/readyz`)
          .then((res) => res.ok)
          .catch(() => (server.child.exitCode === null ? false : Promise.reject(new Error(server.output())))),
      60_000,
      200,
    );
    expect(await (await fetch(`${base}/dashboard/orders`)).text()).toContain('<div id="root">');
    const script = await fetch(`${base}/checkout/assets/checkout.js`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${base}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);

    // The compiled merchant CLI, beside the running server on its folder.
    const create = runCompiled(
      dir,
      'merchant.js',
      ['create', '--email', 'built@example.com', '--password', 'a long enough password'],
      env,
    );
    expect(await create.exited, create.output()).toBe(0);
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'built@example.com', password: 'a long enough password' }),
    });
    expect(login.status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
  }, 120_000);

  it('says how to deploy when it must build but the build tools are not installed', () => {
    const dir = tempDir('stablepay-notools-');
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.mkdirSync(path.join(dir, 'server'));
    fs.copyFileSync(path.join(ROOT, 'scripts/build.mjs'), path.join(dir, 'scripts/build.mjs'));
    fs.writeFileSync(path.join(dir, 'server/main.ts'), 'export {};\n');
    const run = build(['--if-stale'], dir);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/build tools are not installed/);
    expect(run.out).toContain('npm ci && npm run build && npm ci --omit=dev');
  });
});
