import { Connection, Keypair } from '@solana/web3.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeBase58 } from '../../server/lib/base58';
import { newApiKey, newMerchant, type TestServer } from '../support/test-server';
import { freePort } from '../support/free-port';
import { runScript, type Script } from '../support/run-script';
import { startSandboxStack, type SandboxStack } from '../support/sandbox-stack';
import { until } from '../support/until';

/**
 * examples/paid-api against the sandbox (its chains and service in-process, as `npm run sandbox`
 * starts them): the API charges 0.01 USDC per call through the service as x402 facilitator, the
 * client pays it with @x402/fetch holding USDC and no gas (EVM) or no SOL (Solana: the service
 * co-signs as fee payer), and the payment becomes a PAID x402 order on that network.
 */
let stack: SandboxStack;
/** The merchant's key (x402:settle): the sandbox's wallets have one owner, this merchant. */
let apiKey: string;
const scripts: Script[] = [];

beforeAll(async () => {
  stack = await startSandboxStack();
  const m = await newMerchant(stack.server);
  await stack.addWallets(m.token);
  apiKey = await newApiKey(stack.server.api, m.token, ['x402:settle', 'orders:read', 'orders:write']);
}, 120_000);
afterAll(async () => {
  scripts.forEach((s) => s.child.kill('SIGKILL'));
  await stack?.stop();
});

/** Runs the example API on `apiEnv` and its client on `clientEnv`; returns what the client printed. */
async function payThroughExample(
  server: TestServer,
  apiEnv: Record<string, string>,
  clientEnv: Record<string, string>,
) {
  const port = await freePort();
  const api = runScript('examples/paid-api/api.ts', [], {
    STABLEPAY_URL: server.url,
    PORT: String(port),
    ...apiEnv,
  });
  scripts.push(api);
  await api.waitFor(/listening on/);
  const client = runScript('examples/paid-api/client.ts', [], {
    PAID_API_URL: `http://127.0.0.1:${port}/weather`,
    ...clientEnv,
  });
  scripts.push(client);
  expect(await client.exited, client.output()).toBe(0);
  return client.output();
}

/** The merchant's one x402 order on `network` once the sandbox's jobs made it final and PAID by themselves. */
async function paidX402Order(server: TestServer, network: string) {
  const list = () => server.api('GET', `/users/me/orders?kind=x402&network=${network}`, { token: apiKey });
  await until(
    'the x402 order to be PAID',
    async () => (await list()).body.items?.[0]?.status === 'PAID',
    30_000,
  );
  const { items } = (await list()).body;
  expect(items).toHaveLength(1);
  return items[0];
}

it('examples/paid-api: the API is paid 0.01 USDC a call by the client, settled as an x402 order', async () => {
  const { server } = stack;
  const payerKey = generatePrivateKey();
  const payer = privateKeyToAccount(payerKey).address;
  const funded = await server.api('POST', '/sandbox/faucet', {
    token: apiKey,
    body: { network: 'POLYGON', token: 'USDC', address: payer, amount: '1' },
  });
  expect(funded.status, funded.text).toBe(200);

  const output = await payThroughExample(
    server,
    { STABLEPAY_API_KEY: apiKey },
    { PAYER_PRIVATE_KEY: payerKey },
  );
  expect(output).toMatch(/status\s+200/);
  expect(output).toMatch(/"sky":"clear"/);
  expect(output).toMatch(new RegExp(`paid\\s+yes by ${payer} in 0x[0-9a-f]{64}`));
  expect(await paidX402Order(server, 'POLYGON')).toMatchObject({
    kind: 'x402',
    amount: '0.010000',
    token: 'USDC',
    payer,
    network: 'POLYGON',
  });
}, 120_000);

it('examples/paid-api with SANDBOX_NETWORK=SOLANA: the payer pays USDC and not a lamport of fee', async () => {
  const { server } = stack;
  const solana = stack.chains.chains.info().find((c) => c.network === 'SOLANA')!;
  const payer = Keypair.generate();
  const funded = await server.api('POST', '/sandbox/faucet', {
    token: apiKey,
    body: { network: 'SOLANA', token: 'USDC', address: payer.publicKey.toBase58(), amount: '1' },
  });
  expect(funded.status, funded.text).toBe(200);
  const connection = new Connection(solana.rpcUrl, 'confirmed');
  const lamportsBefore = await connection.getBalance(payer.publicKey);

  const output = await payThroughExample(
    server,
    { STABLEPAY_API_KEY: apiKey, SANDBOX_NETWORK: 'SOLANA' },
    { PAYER_SOLANA_SECRET_KEY: encodeBase58(payer.secretKey), SOLANA_RPC_URL: solana.rpcUrl },
  );
  expect(output).toMatch(/status\s+200/);
  expect(output).toMatch(/"sky":"clear"/);
  // A Solana signature: 64 bytes in base58.
  expect(output).toMatch(
    new RegExp(`paid\\s+yes by ${payer.publicKey.toBase58()} in [1-9A-HJ-NP-Za-km-z]{80,90}`),
  );
  expect(await paidX402Order(server, 'SOLANA')).toMatchObject({
    kind: 'x402',
    amount: '0.010000',
    token: 'USDC',
    payer: payer.publicKey.toBase58(),
    network: 'SOLANA',
  });
  // The service co-signed as fee payer: the payer's SOL is as it was.
  expect(await connection.getBalance(payer.publicKey)).toBe(lamportsBefore);
}, 120_000);
