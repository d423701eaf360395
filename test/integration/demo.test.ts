import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, type Script } from '../support/run-script';

const demos: Script[] = [];
afterAll(() => demos.forEach((demo) => demo.child.kill('SIGKILL')));

/** Runs `npm run demo -- …args --exit` on a fresh embedded database; returns its output. */
async function runDemo(args: string[]): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-demo-'));
  fs.chmodSync(dataDir, 0o755);
  try {
    // DATABASE_URL is set in CI: the demo must ignore it and use its own embedded database, on the
    // port it picks itself just before starting it (a port picked here earlier was taken meanwhile
    // by a parallel suite once).
    const demo = runScript('scripts/demo.ts', [...args, '--exit'], {
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/never',
      LOG_LEVEL: 'silent',
    });
    demos.push(demo);
    const code = await demo.exited;
    const out = demo.output();
    expect(code, out).toBe(0);
    // The sandbox's merchant, signed in through the SDK; the order paid by sandbox.pay; its webhook
    // verified by the receiver; the audit timeline read back.
    expect(out).toContain('login: sandbox@example.com / sandbox-password');
    expect(out).toMatch(/checkout page: http:\/\/localhost:\d+\/checkout\/\w+/);
    expect(out).toMatch(/\/docs/);
    expect(out).toMatch(/sent \w{40,}/);
    expect(out).toMatch(/webhook order\.paid \(signature verified\) order PAID/);
    expect(out).toMatch(/member\s+order\.created/);
    expect(out).toMatch(/system\s+payment\.verified/);
    expect(out).toContain('Demo complete.');
    // Its PostgreSQL was stopped with it.
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    return out;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('npm run demo -- --exit', () => {
  it('runs the whole flow on the sandbox on a fresh embedded database and stops', async () => {
    const out = await runDemo([]);
    expect(out).toMatch(/SOLANA chain at http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toMatch(/pay link:\s+solana:\w+\?amount=4\.761905&spl-token=\w+&reference=\w+/);
  }, 120_000);

  it('--network POLYGON: the sandbox chain with id 137, paid and final at its confirmations', async () => {
    const out = await runDemo(['--network', 'POLYGON']);
    expect(out).toContain('POLYGON chain (chain id 137)');
    expect(out).toMatch(
      /pay link:\s+ethereum:0x[0-9a-fA-F]{40}@137\/transfer\?address=0x[0-9a-fA-F]{40}&uint256=4761905\b/,
    );
  }, 120_000);

  it('--network BSC: the USDT of 18 decimals at chain id 56', async () => {
    const out = await runDemo(['--network', 'bsc']);
    expect(out).toContain('BSC chain (chain id 56)');
    expect(out).toMatch(
      /ethereum:0x[0-9a-fA-F]{40}@56\/transfer\?address=0x[0-9a-fA-F]{40}&uint256=4761905\d{12}\b/,
    );
  }, 120_000);

  it('a network the sandbox has no chain for is refused, naming those it has', async () => {
    const demo = runScript('scripts/demo.ts', ['--network', 'BASE', '--exit'], {});
    demos.push(demo);
    expect(await demo.exited).toBe(1);
    expect(demo.output()).toContain("Invalid --network: BASE (the sandbox's: SOLANA, POLYGON, BSC, TRON)");
  });
});
