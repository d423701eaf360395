import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedSandboxChains } from '../../sandbox/start-sandbox-chains';
import { startSandboxStack, type SandboxStack } from '../support/sandbox-stack';
import { newMerchant, startTestServer, type TestServer, newApiKey } from '../support/test-server';
import { until } from '../support/until';
import { ConflictError, createClient, NotFoundError, ValidationError } from '../../sdk/src';
import { randomEvmAddress } from '../../sandbox/chains/evm/local-evm';

/** The sandbox's pieces in-process: its chains, and the service with SANDBOX=true over them. */
let stack: SandboxStack;
let chains: StartedSandboxChains;
let sandbox: TestServer;
let plain: TestServer;
let token: string;

beforeAll(async () => {
  stack = await startSandboxStack();
  ({ chains, server: sandbox } = stack);
  plain = await startTestServer();
  const m = await newMerchant(sandbox);
  token = m.token;
  await stack.addWallets(token);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await plain?.stop();
});

async function order(network: string, amount = '10') {
  const res = await sandbox.api('POST', '/orders', { token, body: { network, token: 'USDT', amount } });
  expect(res.status, res.text).toBe(201);
  return res.body.reference as string;
}
const pay = (reference: string, body: Record<string, unknown>, auth = token) =>
  sandbox.api('POST', `/sandbox/orders/${reference}/pay`, { token: auth, body });
async function statusOf(reference: string) {
  return (await sandbox.api('GET', `/orders/${reference}`, { token })).body.status as string;
}
const paid = (reference: string) =>
  until(`${reference} PAID`, async () => (await statusOf(reference)) === 'PAID');

describe('the sandbox routes', () => {
  it('GET /sandbox: each chain, its tokens and the wallet keys; GET /networks says sandbox', async () => {
    const res = await sandbox.api('GET', '/sandbox', { token });
    expect(res.status, res.text).toBe(200);
    expect(
      res.body.chains.map((c: { network: string; chainId: number | null }) => [c.network, c.chainId]),
    ).toEqual([
      ['SOLANA', null],
      ['POLYGON', 137],
      ['BSC', 56],
    ]);
    expect(res.body.chains[2].tokens[0].decimals).toBe(18);
    expect(res.body.chains[0].wallet.privateKey).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
    const sandboxNetworks = (await sandbox.api('GET', '/networks')).body;
    expect(sandboxNetworks.sandbox).toBe(true);
    // Its chains are local (at mainnet chain ids): no public explorer to link a transaction to.
    expect(sandboxNetworks.items.map((n: { explorer: unknown }) => n.explorer)).toEqual([null, null, null]);
    const plainNetworks = (await plain.api('GET', '/networks')).body;
    expect(plainNetworks.sandbox).toBe(false);
    expect(plainNetworks.items[0].explorer.name).toBe('Solana Explorer');
  });

  it('Solana: part tagged and unreported, then the rest plain and reported: PAID', async () => {
    const reference = await order('SOLANA');
    const first = await pay(reference, { amount: '4' });
    expect(first.status, first.text).toBe(200);
    // Credited and not enough: the order waits for the rest.
    await until(
      'part credited',
      async () =>
        Number((await sandbox.api('GET', `/orders/${reference}`, { token })).body.amountReceived) === 4,
    );
    expect(await statusOf(reference)).not.toBe('PAID');
    const rest = await pay(reference, { tagged: false, report: true });
    expect(rest.status, rest.text).toBe(200);
    await paid(reference);
  });

  it('a part tagged and reported, on each chain: UNDERPAID, not held by its own report', async () => {
    for (const network of ['SOLANA', 'POLYGON']) {
      const reference = await order(network);
      const part = await pay(reference, { amount: '4', network, token: 'USDT', tagged: true, report: true });
      expect(part.status, part.text).toBe(200);
      await until(
        `${network} ${reference} UNDERPAID`,
        async () => (await statusOf(reference)) === 'UNDERPAID',
      );
      const payments = (await sandbox.api('GET', `/orders/${reference}/payments`, { token })).body.items;
      expect(payments).toMatchObject([{ amount: '4.000000', matchedBy: 'tag' }]);
    }
  });

  it('BSC (18 decimals), tagged and unreported: found by the scanner, PAID', async () => {
    const reference = await order('BSC', '2.5');
    expect((await pay(reference, {})).status).toBe(200);
    await paid(reference);
  });

  it('POLYGON, plain and unreported: matched by its exact amount, PAID', async () => {
    const reference = await order('POLYGON', '3');
    expect((await pay(reference, { tagged: false })).status).toBe(200);
    await paid(reference);
  });

  it('faucet: tokens and gas for any address', async () => {
    for (const [network, address] of [
      ['SOLANA', Keypair.generate().publicKey.toBase58()],
      ['BSC', '0x52908400098527886E0F7030069857D2E4169EE7'],
    ]) {
      const res = await sandbox.api('POST', '/sandbox/faucet', {
        token,
        body: { network, address, amount: '5' },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.txIds).toHaveLength(1);
    }
    const none = await sandbox.api('POST', '/sandbox/faucet', {
      token,
      body: {
        network: 'BSC',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        token: 'USDC',
        amount: '1',
      },
    });
    expect(none.status).toBe(400);
  });

  it("advance: blocks on every chain, and the chains' and the service's clocks", async () => {
    const before = (await sandbox.api('POST', '/sandbox/advance', { token, body: {} })).body.networks;
    const res = await sandbox.api('POST', '/sandbox/advance', { token, body: { blocks: 5, seconds: 3600 } });
    expect(res.status, res.text).toBe(200);
    const after = res.body.networks as { network: string; blockNumber?: number; slot?: number }[];
    expect(after.map((n) => n.network)).toEqual(['SOLANA', 'POLYGON', 'BSC']);
    expect(after[0]!.slot).toBeGreaterThanOrEqual(before[0].slot + 5);
    expect(after[1]!.blockNumber).toBeGreaterThanOrEqual(before[1].blockNumber + 5);
    expect(chains.clock().getTime() - Date.now()).toBeGreaterThan(3_500_000);
  });

  it("refund send: the merchant's sandbox key signs the PENDING refund, which SUCCEEDS", async () => {
    const reference = await order('SOLANA', '6');
    await pay(reference, { report: true });
    await paid(reference);
    const created = await sandbox.api('POST', `/orders/${reference}/refunds`, {
      token,
      body: { amount: '1', to: Keypair.generate().publicKey.toBase58() },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const sent = await sandbox.api('POST', `/sandbox/refunds/${id}/send`, { token });
    expect(sent.status, sent.text).toBe(200);
    await until('refund SUCCEEDED', async () => {
      const list = (await sandbox.api('GET', `/orders/${reference}/refunds`, { token })).body.items;
      return list.find((r: { id: string }) => r.id === id)?.status === 'SUCCEEDED';
    });
    const again = await sandbox.api('POST', `/sandbox/refunds/${id}/send`, { token });
    expect(again.status).toBe(409);
  });

  it("payout send: the sandbox's keys pay an APPROVED batch on every chain (18 decimals on BSC), each item verified", async () => {
    const wallets = (await sandbox.api('GET', '/sandbox', { token })).body.chains as {
      network: string;
      wallet: { address: string };
    }[];
    // The merchant's own wallets hold what they pay out.
    for (const c of wallets) {
      const funded = await sandbox.api('POST', '/sandbox/faucet', {
        token,
        body: { network: c.network, address: c.wallet.address, amount: '100' },
      });
      expect(funded.status, funded.text).toBe(200);
    }
    const items = [
      { network: 'SOLANA', token: 'USDT', to: Keypair.generate().publicKey.toBase58(), amount: '1.5' },
      { network: 'SOLANA', token: 'USDT', to: Keypair.generate().publicKey.toBase58(), amount: '2' },
      { network: 'POLYGON', token: 'USDT', to: randomEvmAddress(), amount: '2.25' },
      { network: 'BSC', token: 'USDT', to: randomEvmAddress(), amount: '0.000000000000000001' },
    ];
    const made = await sandbox.api('POST', '/payouts', { token, body: { items } });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id as string;
    const send = (auth = token) => sandbox.api('POST', `/sandbox/payouts/${id}/send`, { token: auth });
    // Nothing is sent before approval.
    expect((await send()).status).toBe(409);
    expect((await sandbox.api('POST', `/payouts/${id}/approve`, { token })).status).toBe(200);
    // Another account cannot have the sandbox pay this one's batch (nor learn it exists).
    const other = await newMerchant(sandbox);
    expect((await send(other.token)).status).toBe(404);
    expect((await sandbox.api('GET', `/payouts/${id}`, { token })).body.status).toBe('APPROVED');

    const sent = await send();
    expect(sent.status, sent.text).toBe(200);
    // Both Solana transfers fit one transaction; one transfer per item on the EVM chains.
    expect(sent.body.txIds).toHaveLength(3);
    const payout = await until('payout COMPLETED', async () => {
      const body = (await sandbox.api('GET', `/payouts/${id}`, { token })).body;
      return body.status === 'COMPLETED' ? body : undefined;
    });
    const confirmed = payout.items as { status: string; txId: string; amount: string }[];
    expect(confirmed.map((i) => i.status)).toEqual(['CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED']);
    expect(sent.body.txIds).toEqual(expect.arrayContaining(confirmed.map((i) => i.txId)));
    expect(confirmed[3]!.amount).toBe('0.000000000000000001');
    // Paid once: again is a 409, and the reporting key needs payouts:write.
    expect((await send()).status).toBe(409);
    const reader = await newApiKey(sandbox.api, token, ['payouts:read']);
    expect((await send(reader)).status).toBe(403);
  });

  it('scopes: pay, faucet and advance need orders:write; refund send refunds:write', async () => {
    const key = (scopes: string[]) => newApiKey(sandbox.api, token, scopes);
    const reader = await key(['orders:read']);
    const writer = await key(['orders:write']);
    const reference = await order('SOLANA', '1');
    expect((await pay(reference, {}, reader)).status).toBe(403);
    expect((await sandbox.api('POST', '/sandbox/advance', { token: reader, body: {} })).status).toBe(403);
    expect((await sandbox.api('POST', '/sandbox/advance', { token: writer, body: {} })).status).toBe(200);
    const refund = await sandbox.api('POST', `/sandbox/refunds/rf_${'0'.repeat(32)}/send`, { token: writer });
    expect(refund.status).toBe(403);
    expect((await sandbox.api('POST', `/sandbox/refunds/rf_${'0'.repeat(32)}/send`, { token })).status).toBe(
      404,
    );
  });

  it('on an instance that is not a sandbox every /sandbox route is the one 404, credentials or not', async () => {
    const m = await newMerchant(plain);
    const routes: [string, string, unknown?][] = [
      ['GET', '/sandbox'],
      ['POST', '/sandbox/orders/x/pay', {}],
      ['POST', '/sandbox/checkout/x/pay', {}],
      ['POST', '/sandbox/faucet', {}],
      ['POST', '/sandbox/advance', {}],
      ['POST', `/sandbox/refunds/rf_${'0'.repeat(32)}/send`],
      ['POST', `/sandbox/payouts/po_${'0'.repeat(32)}/send`],
      ['GET', '/sandbox/anything'],
    ];
    for (const [method, path, body] of routes)
      for (const auth of [undefined, m.token]) {
        const res = await plain.api(method, path, { token: auth, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
  });
});

describe("the checkout's sandbox wallet: POST /sandbox/checkout/{reference}/pay (public)", () => {
  const checkoutPay = (reference: string, body: Record<string, unknown> = {}) =>
    sandbox.api('POST', `/sandbox/checkout/${reference}/pay`, { body });

  it('pays exactly what is due without credentials, tagged and reported: CONFIRMING at once, then PAID', async () => {
    const reference = await order('POLYGON', '4.5');
    const res = await checkoutPay(reference);
    expect(res.status, res.text).toBe(200);
    expect(res.body.txId).toMatch(/^0x[0-9a-f]{64}$/);
    // Reported as the page would: the order has its transaction before any scan finds it.
    expect(['CONFIRMING', 'PAID']).toContain(await statusOf(reference));
    // Counted by the public routes' limiter, per client address, as the checkout's other calls.
    expect(res.headers.get('ratelimit-limit')).toBe(sandbox.config.PUBLIC_RATE_LIMIT_PER_MINUTE.toString());
    await paid(reference);
    const body = (await sandbox.api('GET', `/orders/${reference}`, { token })).body;
    expect(body.amountReceived).toBe(body.amount);
  });

  it('after a part: pays the rest on the chosen option, no more', async () => {
    const reference = await order('SOLANA', '10');
    expect((await pay(reference, { amount: '4' })).status).toBe(200);
    await until('UNDERPAID', async () => (await statusOf(reference)) === 'UNDERPAID');
    const res = await checkoutPay(reference, { network: 'SOLANA', token: 'USDT' });
    expect(res.status, res.text).toBe(200);
    await paid(reference);
    const body = (await sandbox.api('GET', `/orders/${reference}`, { token })).body;
    // The order's own amount (raised by a base unit or so when another open order has its price).
    expect(body.amountReceived).toBe(body.amount);
  });

  it('the checkout says "Sandbox" on its error page too (an unknown link), and nothing of it elsewhere', async () => {
    const unknown = `/checkout/${Keypair.generate().publicKey.toBase58()}`;
    const page = (server: TestServer) =>
      fetch(`${server.url}${unknown}`, { headers: { accept: 'text/html' } });
    const onSandbox = await page(sandbox);
    expect(onSandbox.status).toBe(404);
    expect(await onSandbox.text()).toContain('id="sandbox-banner"');
    const elsewhere = await page(plain);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).not.toContain('sandbox-banner');
  });

  it('two clicks at the same instant pay once: one 200, one 409, the order paid its amount and no more', async () => {
    const reference = await order('POLYGON', '3');
    const answers = await Promise.all([
      checkoutPay(reference),
      checkoutPay(reference),
      checkoutPay(reference),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    await paid(reference);
    const body = (await sandbox.api('GET', `/orders/${reference}`, { token })).body;
    expect(body.amountReceived).toBe(body.amount);
  });

  it('refuses an order that does not await payment: in flight, paid, expired (409); unknown (404); a wrong option (400)', async () => {
    const reference = await order('SOLANA', '2');
    expect((await checkoutPay(reference)).status).toBe(200);
    // A second click while the first payment is CONFIRMING pays nothing twice.
    const again = await checkoutPay(reference);
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    await paid(reference);
    expect((await checkoutPay(reference)).status).toBe(409);

    const res = await sandbox.api('POST', '/orders', {
      token,
      body: { network: 'SOLANA', token: 'USDT', amount: '1', expiresInSeconds: 60 },
    });
    expect(res.status, res.text).toBe(201);
    await sandbox.api('POST', '/sandbox/advance', { token, body: { seconds: 120 } });
    const expired = await checkoutPay(res.body.reference);
    expect(expired.status, expired.text).toBe(409);

    const unknown = await checkoutPay(Keypair.generate().publicKey.toBase58());
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const wrong = await checkoutPay(await order('SOLANA', '1'), { network: 'BSC' });
    expect(wrong.status, wrong.text).toBe(400);
  });
});

describe('the SDK over the sandbox', () => {
  it('sandbox.info, pay, advance and faucet; NotFoundError on an instance that is not a sandbox', async () => {
    const sdk = createClient({ baseUrl: sandbox.url, token });
    const info = await sdk.sandbox.info();
    expect(info.chains.map((c) => c.network)).toEqual(['SOLANA', 'POLYGON', 'BSC']);
    const reference = await order('SOLANA', '3');
    const { txId } = await sdk.sandbox.pay(reference);
    expect(txId).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    await paid(reference);
    const advanced = await sdk.sandbox.advance({ blocks: 2 });
    expect(advanced.networks.map((n) => n.network)).toEqual(['SOLANA', 'POLYGON', 'BSC']);
    const funded = await sdk.sandbox.faucet({
      network: 'POLYGON',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      amount: '5',
    });
    expect(funded.txIds.length).toBeGreaterThan(0);
    const elsewhere = createClient({ baseUrl: plain.url, token: (await newMerchant(plain)).token });
    await expect(elsewhere.sandbox.info()).rejects.toBeInstanceOf(NotFoundError);
  }, 60_000);

  it('payouts: importCsv, approve, sandbox.sendPayout, get, list, csv; bad rows and refusals as typed errors', async () => {
    const sdk = createClient({ baseUrl: sandbox.url, token });
    const polygon = (await sdk.sandbox.info()).chains.find((c) => c.network === 'POLYGON')!;
    await sdk.sandbox.faucet({ network: 'POLYGON', address: polygon.wallet.address, amount: '10' });
    const to = randomEvmAddress();
    const bad = await sdk.payouts
      .importCsv(`network,token,to,amount\nPOLYGON,USDT,${to},1\nPOLYGON,USDT,nowhere,1\n`)
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).details?.map((d) => d.path)).toEqual(['items.1.to']);

    const made = await sdk.payouts.importCsv(
      `network,token,to,amount,reference\nPOLYGON,USDT,${to},1.25,"a, b"\n`,
      {
        description: 'SDK batch',
      },
    );
    expect(made).toMatchObject({ status: 'DRAFT', description: 'SDK batch', items: [{ reference: 'a, b' }] });
    await expect(sdk.payouts.transactions(made.id)).rejects.toBeInstanceOf(ConflictError);
    expect((await sdk.payouts.approve(made.id)).status).toBe('APPROVED');
    expect((await sdk.payouts.transactions(made.id)).map((t) => t.items)).toEqual([[made.items[0]!.id]]);
    const { txIds } = await sdk.sandbox.sendPayout(made.id);
    const done = await until('COMPLETED', async () => {
      const payout = await sdk.payouts.get(made.id);
      return payout.status === 'COMPLETED' ? payout : undefined;
    });
    expect(done.items[0]).toMatchObject({ status: 'CONFIRMED', txId: txIds[0], amount: '1.250000' });
    const csv = await sdk.payouts.csv(made.id);
    expect(csv.split('\r\n')[1]).toBe(
      `${made.items[0]!.id},POLYGON,USDT,${to},1.250000,"a, b",,CONFIRMED,${txIds[0]},,${done.items[0]!.confirmedAt}`,
    );
    expect((await sdk.payouts.list({ status: 'COMPLETED' })).items.map((p) => p.id)).toContain(made.id);
    const all: string[] = [];
    for await (const p of sdk.payouts.listAll()) all.push(p.id);
    expect(all).toContain(made.id);
    await expect(sdk.payouts.cancel(made.id)).rejects.toBeInstanceOf(ConflictError);
    await expect(sdk.payouts.csv(`po_${'0'.repeat(32)}`)).rejects.toBeInstanceOf(NotFoundError);
  }, 60_000);
});
