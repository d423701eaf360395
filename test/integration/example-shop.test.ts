import { afterAll, expect, it } from 'vitest';
import { runCommand } from '../support/run-script';
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process';

let sandbox: SandboxProcess | undefined;
afterAll(() => sandbox?.dispose());

/** The variables of this run of vitest, which the shop's own run of it must not take for its own. */
const outerVitest = Object.fromEntries(
  Object.keys(process.env)
    .filter((name) => name.startsWith('VITEST') || name === 'TEST' || name === 'NODE_ENV')
    .map((name) => [name, undefined]),
);

it("examples/shop: the shop's own vitest suite passes against npm run sandbox", async () => {
  sandbox = await startSandboxProcess();
  await sandbox.ready();
  // As shop.test.ts says to run it: `npx vitest run --config examples/shop/vitest.config.ts`.
  const shop = runCommand('npx', ['vitest', 'run', '--config', 'examples/shop/vitest.config.ts'], {
    ...outerVitest,
    FORCE_COLOR: undefined,
    NO_COLOR: '1',
    STABLEPAY_URL: sandbox.url,
  });
  const code = await shop.exited;
  expect(code, shop.output()).toBe(0);
  expect(shop.output()).toMatch(/Tests\s+2 passed \(2\)/);
}, 150_000);
