import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxTron } from '../../sandbox/start-tron';
import { startSandboxStack, type SandboxStack } from '../support/sandbox-stack';
import { newMerchant, type TestServer } from '../support/test-server';
import { until } from '../support/until';

/** The sandbox's routes on its TRON chain, as `npm run sandbox` starts it (TRON on by default). */
let stack: SandboxStack;
let sandbox: TestServer;
let tron: SandboxTron;
let token: string;

beforeAll(async () => {
  // TRON has no push notice: its scan polls every SCAN_POLL_SECONDS (the sandbox's: 3).
  stack = await startSandboxStack({ SCAN_POLL_SECONDS: '1' }, { tron: true });
  sandbox = stack.server;
  tron = stack.chains.tron!;
  token = (await newMerchant(sandbox)).token;
  await stack.addWallets(token);
}, 120_000);
afterAll(() => stack?.stop());

async function order(amount: string) {
  const res = await sandbox.api('POST', '/orders', {
    token,
    body: { network: 'TRON', token: 'USDT', amount },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.reference as string;
}
const pay = (reference: string, body: Record<string, unknown>) =>
  sandbox.api('POST', `/sandbox/orders/${reference}/pay`, { token, body });
const paid = (reference: string) =>
  until(
    `${reference} PAID`,
    async () => (await sandbox.api('GET', `/orders/${reference}`, { token })).body.status === 'PAID',
    30_000,
  );

describe('the sandbox on TRON', () => {
  it("GET /sandbox lists TRON: its JSON-RPC and HTTP API, USDT, the merchant's wallet and key", async () => {
    const res = await sandbox.api('GET', '/sandbox', { token });
    expect(res.status, res.text).toBe(200);
    const chain = (res.body.chains as { network: string }[]).find((c) => c.network === 'TRON');
    expect(chain).toEqual({
      network: 'TRON',
      kind: 'tron',
      chainId: 0x2b6653dc,
      rpcUrl: tron.tron.jsonRpcUrl,
      apiUrl: tron.tron.url,
      tokens: [{ symbol: 'USDT', contract: tron.tron.usdt, decimals: 6 }],
      wallet: { address: tron.info.wallet.address, privateKey: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
  });

  it("an order paid tagged (the transaction request's calldata) and unreported: found, PAID once solidified", async () => {
    const reference = await order('7.5');
    const res = await pay(reference, {});
    expect(res.status, res.text).toBe(200);
    expect(await tron.tron.txInfo(res.body.txId)).toMatchObject({ receipt: { result: 'SUCCESS' } });
    await paid(reference);
    const payments = (await sandbox.api('GET', `/orders/${reference}/payments`, { token })).body.items;
    expect(payments).toMatchObject([{ txId: res.body.txId, amount: '7.500000', matchedBy: 'tag' }]);
  });

  it('an order paid by a plain exact transfer nobody reports: matched by its amount, PAID', async () => {
    const reference = await order('3.25');
    expect((await pay(reference, { tagged: false })).status).toBe(200);
    await paid(reference);
    const payments = (await sandbox.api('GET', `/orders/${reference}/payments`, { token })).body.items;
    expect(payments).toMatchObject([{ amount: '3.250000', matchedBy: 'amount' }]);
  });

  it('the checkout\'s "Pay with the sandbox wallet" on TRON: what is due, tagged and reported, PAID', async () => {
    const reference = await order('2');
    const res = await sandbox.api('POST', `/sandbox/checkout/${reference}/pay`, {
      body: { network: 'TRON' },
    });
    expect(res.status, res.text).toBe(200);
    await paid(reference);
  });

  it('faucet: USDT by a real TRON transfer, and TRX for fees', async () => {
    const address = (await tron.tron.newWallet({ trx: 0n })).address;
    const res = await sandbox.api('POST', '/sandbox/faucet', {
      token,
      body: { network: 'TRON', address, amount: '5' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.txIds).toHaveLength(1);
    expect(await tron.tron.txInfo(res.body.txIds[0])).toMatchObject({ receipt: { result: 'SUCCESS' } });
    expect(await tron.tron.tokenBalance(address)).toBe(5_000_000n);
    expect(tron.tron.trxBalance(address)).toBe(100_000_000n);
  });

  it('advance: TRON blocks mined with the others', async () => {
    const before = (await sandbox.api('POST', '/sandbox/advance', { token, body: {} })).body.networks;
    const res = await sandbox.api('POST', '/sandbox/advance', { token, body: { blocks: 5 } });
    expect(res.status, res.text).toBe(200);
    const at = (list: { network: string; blockNumber: number }[]) =>
      list.find((n) => n.network === 'TRON')!.blockNumber;
    expect(at(res.body.networks)).toBeGreaterThanOrEqual(at(before) + 5);
  });

  it("refund send: the sandbox's key signs the TRON refund the service built, which SUCCEEDS", async () => {
    const reference = await order('6');
    await pay(reference, { report: true });
    await paid(reference);
    const customer = await tron.tron.newWallet({ trx: 0n });
    const created = await sandbox.api('POST', `/orders/${reference}/refunds`, {
      token,
      body: { amount: '1', to: customer.address },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const sent = await sandbox.api('POST', `/sandbox/refunds/${id}/send`, { token });
    expect(sent.status, sent.text).toBe(200);
    await until(
      'refund SUCCEEDED',
      async () => {
        const list = (await sandbox.api('GET', `/orders/${reference}/refunds`, { token })).body.items;
        return list.find((r: { id: string }) => r.id === id)?.status === 'SUCCEEDED';
      },
      30_000,
    );
    expect(await tron.tron.tokenBalance(customer.address)).toBe(1_000_000n);
    expect((await sandbox.api('POST', `/sandbox/refunds/${id}/send`, { token })).status).toBe(409);
  });
});
