import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');
const run = promisify(execFile);

/** The layering check `npm run lint` runs, in `cwd`: its exit code and what it printed. */
async function cruise(cwd: string) {
  try {
    const { stdout } = await run(
      DEPCRUISE,
      ['server', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
      {
        cwd,
      },
    );
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A small tree under the real rules: `files` maps paths to what each imports. */
async function tree(files: Record<string, string[]>) {
  const dir = await mkdtemp(path.join(tmpdir(), 'layering-'));
  dirs.push(dir);
  await copyFile(path.join(ROOT, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  await copyFile(path.join(ROOT, '.layers.cjs'), path.join(dir, '.layers.cjs'));
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true } }));
  for (const [file, imports] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    const lines = imports.map((to, i) => `import { x as x${i} } from '${to}';\nvoid x${i};`);
    await writeFile(path.join(dir, file), `${lines.join('\n')}\nexport const x = 1;\n`);
  }
  return dir;
}

describe('the layering that npm run lint checks', () => {
  it('places every folder of server/ in a layer: a new domain is added to the rules before it is checked', async () => {
    const layers = createRequire(import.meta.url)(path.join(ROOT, '.layers.cjs')) as Record<string, string[]>;
    const placed = new Set(Object.values(layers).flat());
    const folders = (await readdir(path.join(ROOT, 'server'), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(20);
    expect(
      folders.filter((folder) => !placed.has(folder)),
      'folders of server/ in no layer of .layers.cjs (docs/architecture.md, "Adding a domain")',
    ).toEqual([]);
    // And the rules name nothing that is gone.
    expect([...placed].filter((folder) => !folders.includes(folder))).toEqual([]);
  });

  it('holds on the server as it is', async () => {
    const { code, output } = await cruise(ROOT);
    expect(output).not.toMatch(/error/);
    expect(code).toBe(0);
  });

  it('fails on an import against it, naming the rule', async () => {
    const dir = await tree({
      'server/orders/present-order.ts': [],
      'server/payments/scan.ts': [],
      'server/checkout/page.ts': [],
      'server/events/emit.ts': ['../orders/present-order'],
      'server/jobs/job.ts': ['../payments/scan'],
      'server/pay/router.ts': ['../checkout/page'],
      'server/db/lease.ts': ['../jobs/job'],
      'server/orders/create.ts': ['../payments/scan'],
      'server/lib/a.ts': ['./b'],
      'server/lib/b.ts': ['./a'],
    });
    const { code, output } = await cruise(dir);
    expect(code).not.toBe(0);
    for (const violation of [
      'events-and-jobs-take-plain-data: server/events/emit.ts → server/orders/present-order.ts',
      'events-and-jobs-take-plain-data: server/jobs/job.ts → server/payments/scan.ts',
      'one-way-from-pay: server/pay/router.ts → server/checkout/page.ts',
      'infrastructure-below-events-and-jobs: server/db/lease.ts → server/jobs/job.ts',
      'one-way-from-orders: server/orders/create.ts → server/payments/scan.ts',
      'no-circular: server/lib/a.ts',
    ])
      expect(output).toContain(violation);
  });
});
