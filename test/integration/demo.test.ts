import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, type Script } from '../support/run-script';
import { freePort } from '../support/free-port';

let demo: Script | undefined;
afterAll(() => demo?.child.kill('SIGKILL'));

describe('npm run demo -- --exit', () => {
  it('runs the whole flow on a fresh embedded database and stops', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-demo-'));
    fs.chmodSync(dataDir, 0o755);
    try {
      // DATABASE_URL is set in CI: the demo must ignore it and use its own embedded database.
      demo = runScript('scripts/demo.ts', ['--exit'], {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/never',
        LOG_LEVEL: 'silent',
      });
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
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
