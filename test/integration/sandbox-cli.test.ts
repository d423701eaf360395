import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process';
import { until } from '../support/until';

let sandbox: SandboxProcess | undefined;
afterAll(() => sandbox?.dispose());

it('npm run sandbox: ready, the merchant signs in, orders are paid, funded, advanced through the routes, Ctrl-C stops it all', async () => {
  // As a user would, but as its own Node process so that SIGINT reaches the program itself.
  sandbox = await startSandboxProcess();
  await sandbox.ready();
  const out = sandbox.output();
  expect(out).toContain('sandbox@example.com / sandbox-password');
  expect(out).toMatch(/POLYGON \(chain id 137\)/);
  expect(out).toMatch(/BSC \(chain id 56\)/);
  expect(out).toMatch(/TRON \(chain id 728126428\) {2}RPC http:\S+\/jsonrpc {2}HTTP API http:/);
  const base = sandbox.url;
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
  // TRON is on by default: the merchant's TRON wallet, paid through the transaction request's tag.
  const tron = await call('POST', '/orders', token, { network: 'TRON', token: 'USDT', amount: '4' });
  expect(tron.status).toBe(201);
  const tronReference = tron.body.reference as string;
  expect((await call('POST', `/sandbox/orders/${tronReference}/pay`, token, {})).status).toBe(200);
  await until(
    'TRON PAID',
    async () => (await call('GET', `/orders/${tronReference}`, token)).body.status === 'PAID',
    30_000,
  );

  // The other routes on the sandbox as started: its chains, the faucet, the clocks, the checkout's.
  expect((await call('GET', '/networks')).body.sandbox).toBe(true);
  const info = await call('GET', '/sandbox', token);
  expect((info.body.chains as { network: string }[]).map((c) => c.network)).toEqual([
    'SOLANA',
    'POLYGON',
    'BSC',
    'TRON',
  ]);
  const faucet = await call('POST', '/sandbox/faucet', token, {
    network: 'BSC',
    address: '0x000000000000000000000000000000000000dEaD',
    amount: '5',
  });
  expect(faucet.status).toBe(200);
  expect((faucet.body.txIds as string[]).length).toBeGreaterThan(0);
  type Position = { network: string; blockNumber?: number; slot?: number };
  const before = (await call('POST', '/sandbox/advance', token, {})).body.networks as Position[];
  const after = (await call('POST', '/sandbox/advance', token, { blocks: 5 })).body.networks as Position[];
  for (const [i, position] of after.entries())
    expect(position.blockNumber ?? position.slot!).toBeGreaterThanOrEqual(
      (before[i]!.blockNumber ?? before[i]!.slot!) + 5,
    );
  const second = await call('POST', '/orders', token, { network: 'SOLANA', token: 'USDT', amount: '3' });
  const secondReference = second.body.reference as string;
  expect((await call('POST', `/sandbox/checkout/${secondReference}/pay`, undefined, {})).status).toBe(200);
  await until(
    'PAID at the checkout',
    async () => (await call('GET', `/orders/${secondReference}`, token)).body.status === 'PAID',
  );
  // A refund sent with the sandbox's key (POST /sandbox/refunds/{id}/send): examples/shop's suite,
  // run on a sandbox started the same way (example-shop.test.ts).

  sandbox.interrupt();
  expect(await sandbox.exited).toBe(0);
  await until('no process left', () => sandbox!.leftovers() === '', 10_000);
  expect(fs.existsSync(path.join(sandbox.dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
}, 150_000);
