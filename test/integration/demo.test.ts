import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, type Script } from '../support/run-script';
import { freePort } from '../support/free-port';

const demos: Script[] = [];
afterAll(() => demos.forEach((demo) => demo.child.kill('SIGKILL')));

/** Runs `npm run demo -- …args --exit` on a fresh embedded database; returns its output. */
async function runDemo(args: string[]): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-demo-'));
  fs.chmodSync(dataDir, 0o755);
  try {
    // DATABASE_URL is set in CI: the demo must ignore it and use its own embedded database.
    const demo = runScript('scripts/demo.ts', [...args, '--exit'], {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/never',
      LOG_LEVEL: 'silent',
    });
    demos.push(demo);
    const code = await demo.exited;
    const out = demo.output();
    expect(code, out).toBe(0);
    expect(out).toContain('login: demo@stablepay.local');
    expect(out).toMatch(/checkout page: http:\/\/127\.0\.0\.1:\d+\/checkout\/\w+/);
    expect(out).toMatch(/\/docs/);
    expect(out).toMatch(/webhook order\.paid \(signature verified\) order PAID/);
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
  it('runs the whole flow on a fresh embedded database and stops', async () => {
    const out = await runDemo([]);
    expect(out).toContain('local Solana chain');
    expect(out).toMatch(/pay link:\s+solana:/);
  }, 120_000);

  it('--network POLYGON: pays through the transaction request on a local chain with id 137', async () => {
    const out = await runDemo(['--network', 'POLYGON']);
    expect(out).toContain('local POLYGON chain (a Hardhat node, chain id 137)');
    expect(out).toMatch(
      /pay link:\s+ethereum:0x[0-9a-fA-F]{40}@137\/transfer\?address=0x[0-9a-fA-F]{40}&uint256=\d+/,
    );
    expect(out).toMatch(/reported through the SDK \(submit-tx\): the order is CONFIRMING/);
    expect(out).toMatch(/the service read it on chain: PAID/);
    expect(out).toMatch(/payer\s+tx\.submitted/);
  }, 120_000);

  it('--network BASE: a network turned on by configuration, its USDT at the chain id 8453', async () => {
    const out = await runDemo(['--network', 'BASE']);
    expect(out).toContain('local BASE chain (a Hardhat node, chain id 8453)');
    expect(out).toMatch(/ethereum:0x[0-9a-fA-F]{40}@8453\/transfer\?address=0x[0-9a-fA-F]{40}&uint256=\d+/);
    expect(out).toMatch(/the service read it on chain: PAID/);
  }, 120_000);
});
