import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '../support/test-server';
import { freePort } from '../support/free-port';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const PASSWORD = 'a long enough password';

function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(TSX, ['server/cli/merchant.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

describe('merchant command line on DATABASE_URL', () => {
  const env = () => ({ DATABASE_URL: inject('databaseUrl'), DATABASE_URL_UNUSED: '' });

  it('creates, lists and resets merchants, refusing bad input with a message', async () => {
    const email = `cli-${Date.now()}@example.com`;
    const created = await run(
      ['create', '--email', email, '--password', PASSWORD, '--name', 'CLI Shop'],
      env(),
    );
    expect(created.code, created.out).toBe(0);
    expect(created.out).toContain(email);
    const dup = await run(['create', '--email', email, '--password', PASSWORD], env());
    expect(dup.code).toBe(1);
    expect(dup.out).toMatch(/already exists/);
    const short = await run(['create', '--email', `x${email}`, '--password', 'short'], env());
    expect(short.code).toBe(1);
    expect(short.out).toMatch(/at least 10/);
    const missing = await run(['create', '--email', email], env());
    expect(missing.code).toBe(2);
    const list = await run(['list'], env());
    expect(list.out).toContain(email);
    const reset = await run(
      ['reset-password', '--email', email, '--password', 'another long password'],
      env(),
    );
    expect(reset.code, reset.out).toBe(0);
    const unknown = await run(
      ['reset-password', '--email', `nobody-${email}`, '--password', 'another long password'],
      env(),
    );
    expect(unknown.code).toBe(1);
  });
});

describe('merchant command line on the embedded database', () => {
  it('works with the server stopped and while it runs on the same data folder', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-cli-'));
    fs.chmodSync(dataDir, 0o755);
    // No EMBEDDED_PG_PORT: the CLI and the server find the database through the folder alone.
    const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: '', DATABASE_URL: '', LOG_LEVEL: 'silent' };
    try {
      // 1. No server running: the CLI starts the embedded PostgreSQL itself, then stops it.
      const first = await run(['create', '--email', 'first@example.com', '--password', PASSWORD], env);
      expect(first.code, first.out).toBe(0);

      // 2. The server starts on the same folder and sees that merchant.
      const port = await freePort();
      const server = spawn(TSX, ['server/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, ...env, PORT: String(port) },
      });
      children.push(server);
      const api = apiClient(`http://127.0.0.1:${port}`);
      for (let i = 0; i < 100; i++) {
        const ready = await api('GET', '/readyz').catch(() => null);
        if (ready?.status === 200) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const login1 = await api('POST', '/auth/login', {
        body: { email: 'first@example.com', password: PASSWORD },
      });
      expect(login1.status).toBe(200);

      // 3. While it runs, the CLI joins the same database; the server keeps working afterwards.
      const second = await run(['create', '--email', 'second@example.com', '--password', PASSWORD], env);
      expect(second.code, second.out).toBe(0);
      const login2 = await api('POST', '/auth/login', {
        body: { email: 'second@example.com', password: PASSWORD },
      });
      expect(login2.status).toBe(200);

      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      const list = await run(['list'], env);
      expect(list.out).toContain('first@example.com');
      expect(list.out).toContain('second@example.com');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
