import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { runScript, type Script } from '../support/run-script';
import { until } from '../support/until';

let sandbox: Script | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-sandbox-'));
fs.chmodSync(dataDir, 0o755);
afterAll(() => {
  sandbox?.child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Processes whose command line names the data directory or descend from the sandbox: none must be left. */
const leftovers = (pid: number) => {
  let alive = true;
  try {
    process.kill(pid, 0);
  } catch {
    alive = false;
  }
  try {
    // The embedded PostgreSQL names the data directory on its command line.
    return `${alive ? pid : ''} ${execFileSync('pgrep', ['-f', dataDir]).toString().trim()}`.trim();
  } catch {
    return alive ? String(pid) : ''; // pgrep: no match
  }
};

it('npm run sandbox: ready, the merchant signs in, an order is paid through the routes, Ctrl-C stops it all', async () => {
  const port = await freePort();
  // As a user would, but as its own Node process so that SIGINT reaches the program itself.
  sandbox = runScript('sandbox/main.ts', [], {
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/never',
    NODE_ENV: 'development',
  });
  await sandbox.waitFor(/sandbox ready in/, 90_000);
  const out = sandbox.output();
  expect(out).toContain('sandbox@example.com / sandbox-password');
  expect(out).toMatch(/POLYGON \(chain id 137\)/);
  expect(out).toMatch(/BSC \(chain id 56\)/);
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const login = await call('POST', '/auth/login', undefined, {
    email: 'sandbox@example.com',
    password: 'sandbox-password',
  });
  expect(login.status).toBe(200);
  const token = login.body.token as string;
  const order = await call('POST', '/orders', token, { network: 'POLYGON', token: 'USDT', amount: '12' });
  expect(order.status).toBe(201);
  const reference = order.body.reference as string;
  expect((await call('POST', `/sandbox/orders/${reference}/pay`, token, {})).status).toBe(200);
  await until('PAID', async () => (await call('GET', `/orders/${reference}`, token)).body.status === 'PAID');

  sandbox.child.kill('SIGINT');
  expect(await sandbox.exited).toBe(0);
  await until('no process left', () => leftovers(sandbox!.child.pid!) === '', 10_000);
  expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
}, 150_000);
