import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newApiKey, newMerchant } from '../support/test-server';
import { freePort } from '../support/free-port';
import { runScript, type Script } from '../support/run-script';
import { startSandboxStack, type SandboxStack } from '../support/sandbox-stack';
import { until } from '../support/until';

/**
 * examples/paid-api against the sandbox (its chains and service in-process, as `npm run sandbox`
 * starts them): the API charges 0.01 USDC per call through the service as x402 facilitator, the
 * client pays it with @x402/fetch holding USDC and no gas, and the payment becomes a PAID x402 order.
 */
let stack: SandboxStack;
const scripts: Script[] = [];

beforeAll(async () => {
  stack = await startSandboxStack();
}, 120_000);
afterAll(async () => {
  scripts.forEach((s) => s.child.kill('SIGKILL'));
  await stack?.stop();
});

it('examples/paid-api: the API is paid 0.01 USDC a call by the client, settled as an x402 order', async () => {
  const { server } = stack;
  const m = await newMerchant(server);
  await stack.addWallets(m.token);
  const apiKey = await newApiKey(server.api, m.token, ['x402:settle', 'orders:read', 'orders:write']);
  const payerKey = generatePrivateKey();
  const payer = privateKeyToAccount(payerKey).address;
  const funded = await server.api('POST', '/sandbox/faucet', {
    token: apiKey,
    body: { network: 'POLYGON', token: 'USDC', address: payer, amount: '1' },
  });
  expect(funded.status, funded.text).toBe(200);

  const port = await freePort();
  const api = runScript('examples/paid-api/api.ts', [], {
    STABLEPAY_URL: server.url,
    STABLEPAY_API_KEY: apiKey,
    PORT: String(port),
  });
  scripts.push(api);
  await api.waitFor(/listening on/);
  const client = runScript('examples/paid-api/client.ts', [], {
    PAYER_PRIVATE_KEY: payerKey,
    PAID_API_URL: `http://127.0.0.1:${port}/weather`,
  });
  scripts.push(client);
  expect(await client.exited, client.output()).toBe(0);
  expect(client.output()).toMatch(/status\s+200/);
  expect(client.output()).toMatch(/"sky":"clear"/);
  expect(client.output()).toMatch(new RegExp(`paid\\s+yes by ${payer} in 0x[0-9a-f]{64}`));

  // The sandbox's jobs make it final and PAID by themselves (a block a second).
  await until(
    'the x402 order to be PAID',
    async () => {
      const list = await server.api('GET', '/users/me/orders?kind=x402', { token: apiKey });
      return list.body.items?.[0]?.status === 'PAID';
    },
    30_000,
  );
  const [order] = (await server.api('GET', '/users/me/orders?kind=x402', { token: apiKey })).body.items;
  expect(order).toMatchObject({ kind: 'x402', amount: '0.010000', token: 'USDC', payer, network: 'POLYGON' });
}, 120_000);
