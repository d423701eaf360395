import { TronWeb } from 'tronweb';
import { toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { claimProofMessage } from '../../contract';
import { decodeBase58 } from '../../server/lib/base58';
import { startLocalTron, type LocalTron, type TronWallet } from '../../sandbox/chains/tron';
import {
  startPaymentHarness,
  usePaymentStack,
  type HarnessShop,
  type PaymentHarness,
} from '../support/payment-harness';

/**
 * USDT on TRON end to end, on the TRON-compatible local chain (Hardhat behind a gateway speaking
 * TRON's JSON-RPC and HTTP API, USDT behaving like TRON's, finalized = 19 blocks behind the head).
 * The service reaches it only through TRON_RPC_URL / TRON_API_URL; jobs are driven by hand.
 */

let tron: LocalTron;
let h: PaymentHarness;

usePaymentStack(
  async () => {
    tron = await startLocalTron();
    h = await startPaymentHarness({
      TRON_RPC_URL: tron.jsonRpcUrl,
      TRON_API_URL: tron.url,
      TRON_API_KEY: 'test-key',
      PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: '2',
    });
  },
  () => [h, tron],
);

const signer = new TronWeb({ fullHost: 'http://127.0.0.1:9' });
/** TIP-191, as TronLink's signMessageV2 gives it. */
const signTip191 = (wallet: TronWallet, message: string) =>
  signer.trx.signMessageV2(message, wallet.privateKey);
const tagHex = (reference: string) => toHex(decodeBase58(reference)!);

async function newShop(): Promise<HarnessShop & { key: TronWallet }> {
  const key = await tron.newWallet();
  return { ...(await h.newShop('TRON', key.address)), key };
}
const payer = (usdt = 1_000_000_000n) => tron.newWallet({ usdt });

/** Pays through the service's transaction request as TronLink would: sign the unsigned transaction, broadcast it. */
async function payByRequest(reference: string, from: TronWallet, query = '') {
  const req = await h.server.api('GET', `/pay/tx-request/${reference}?account=${from.address}${query}`);
  expect(req.status, req.text).toBe(200);
  const answer = await tron.broadcast(await tron.sign(req.body.transaction, from));
  expect(answer.result, JSON.stringify(answer)).toBe(true);
  return answer.txid!;
}

async function paymentsOf(shop: HarnessShop, reference: string) {
  const res = await h.server.api('GET', `/orders/${reference}/payments`, { token: shop.token });
  expect(res.status, res.text).toBe(200);
  return res.body.items as { txId: string; matchedBy: string; amount: string; from: string }[];
}

describe('TRON payments', () => {
  it('GET /networks lists TRON with its kind, chain id and confirmations; hex wallet addresses are a 400', async () => {
    const res = await h.server.api('GET', '/networks');
    const item = (res.body.items as { network: string }[]).find((n) => n.network === 'TRON');
    expect(item).toMatchObject({
      kind: 'tron',
      chainId: 0x2b6653dc,
      confirmations: 0,
      tokens: [{ symbol: 'USDT', contract: tron.usdt, decimals: 6 }],
    });
    const shop = await newShop();
    const hex = `41${(await tron.newWallet()).hex.slice(2)}`;
    for (const address of [hex, `0x${hex.slice(2)}`]) {
      const added = await h.server.api('POST', '/users/me/wallets', {
        token: shop.token,
        body: { network: 'TRON', public_address: address },
      });
      expect(added.status, address).toBe(400);
    }
  });

  it('a plain exact transfer nobody reports: found by the scanner, PAID only once solidified', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '12.5' });
    expect(order).toMatchObject({
      network: 'TRON',
      tokenMintOrContract: tron.usdt,
      recipient: shop.wallet,
      payUrl: `tron:${shop.wallet}?amount=12.5`,
      qrData: shop.wallet,
      txRequestUrl: null,
    });
    const txId = await tron.transfer({ from: await payer(), to: shop.wallet, units: 12_500_000n });
    await h.runJobsFor(3);
    expect((await h.getOrder(shop, order.reference)).status).toBe('PENDING');
    await tron.solidify();
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '12.500000', txId });
    expect((await paymentsOf(shop, order.reference)).map((p) => p.matchedBy)).toEqual(['amount']);
  });

  it('through the transaction request (tag in the calldata) and submit-tx: CONFIRMING, then PAID by its tag', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '20' });
    const from = await payer();
    const req = await h.server.api(
      'GET',
      `/pay/tx-request/${order.reference}?network=TRON&account=${from.address}`,
    );
    expect(req.status, req.text).toBe(200);
    const data = req.body.transaction.raw_data.contract[0].parameter.value.data as string;
    expect(data.slice(-64)).toBe(tagHex(order.reference).slice(2));
    const txId = await payByRequest(order.reference, from);
    expect((await h.submitTx(order.reference, `0x${txId.toUpperCase()}`)).status).toBe(202);
    await h.runJobsFor(2);
    expect((await h.getOrder(shop, order.reference)).status).toBe('CONFIRMING');
    await tron.solidify();
    await h.settle(shop, order.reference, 'PAID');
    expect((await paymentsOf(shop, order.reference))[0]).toMatchObject({
      txId,
      matchedBy: 'tag',
      from: from.address,
    });
  });

  it('a transaction request without an account, or with a hex one, is a 400 at account', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '1' });
    for (const account of ['', `?account=${(await payer()).hex}`]) {
      const res = await h.server.api('GET', `/pay/tx-request/${order.reference}${account}`);
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain('account');
    }
  });

  it('underpaid, reported with a TIP-191 signed claim, then topped up through the transaction request', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '10' });
    const from = await payer();
    const short = await tron.transfer({ from, to: shop.wallet, units: 7_000_000n });
    const unsigned = await h.submitTx(order.reference, short);
    expect(unsigned.status).toBe(202);
    const signed = await h.submitTx(
      order.reference,
      short,
      signTip191(from, claimProofMessage(order.reference, short)),
    );
    expect(signed.status, signed.text).toBe(202);
    await tron.solidify();
    const under = await h.settle(shop, order.reference, 'UNDERPAID');
    expect(under.amountReceived).toBe('7.000000');
    const topUp = await payByRequest(order.reference, from);
    await tron.solidify();
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid.amountReceived).toBe('10.000000');
    const payments = await paymentsOf(shop, order.reference);
    expect(payments.map((p) => [p.txId, p.matchedBy, p.amount])).toEqual([
      [short, 'claim', '7.000000'],
      [topUp, 'tag', '3.000000'],
    ]);
  });

  it('a failed transaction, a 0-value transferFrom, a same-symbol fake token and a transfer to another merchant each credit nothing', async () => {
    const shop = await newShop();
    const other = await newShop();
    const order = await h.createOrder(shop, { amount: '5' });
    const from = await payer();
    // Out of energy: the fee limit does not cover the call, the transaction is in a block and failed.
    const failed = await tron.transfer({
      from,
      to: shop.wallet,
      units: 5_000_000n,
      tag: tagHex(order.reference),
      feeLimit: 1,
    });
    const poison = await tron.transferFrom({
      from,
      owner: (await payer()).address,
      to: shop.wallet,
      units: 0n,
    });
    await tron.mint(from.address, 5_000_000n, tron.fakeUsdt);
    const fake = await tron.transfer({
      from,
      to: shop.wallet,
      units: 5_000_000n,
      token: tron.fakeUsdt,
      tag: tagHex(order.reference),
    });
    const elsewhere = await tron.transfer({
      from,
      to: other.wallet,
      units: 5_000_000n,
      tag: tagHex(order.reference),
    });
    for (const txId of [failed, poison, fake, elsewhere])
      expect((await h.attribute(shop, order.reference, txId)).status).toBe(202);
    await tron.solidify();
    await h.runJobs(async () => {
      const audit = await h.auditOf(shop, order.reference);
      return audit.filter((e) => e.type === 'payment.rejected').length >= 4;
    });
    const reasons = (await h.auditOf(shop, order.reference))
      .filter((e) => e.type === 'payment.rejected')
      .map((e) => `${String(e.data.txId)} ${String(e.data.reason)}`);
    expect(reasons.find((r) => r.startsWith(failed))).toContain('failed');
    for (const txId of [poison, fake, elsewhere])
      expect(reasons.find((r) => r.startsWith(txId))).toBeDefined();
    const now = await h.getOrder(shop, order.reference);
    expect(now).toMatchObject({ status: 'PENDING', amountReceived: '0.000000' });
    expect(await paymentsOf(other, order.reference).catch(() => [])).toEqual([]);
  });

  it('a refund: built for the merchant wallet with its cost, signed, broadcast and verified', async () => {
    const shop = await newShop();
    const from = await payer();
    const order = await h.createOrder(shop, { amount: '8' });
    await tron.transfer({ from, to: shop.wallet, units: 8_000_000n, tag: tagHex(order.reference) });
    await tron.solidify();
    await h.settle(shop, order.reference, 'PAID');
    const created = await h.server.api('POST', `/orders/${order.reference}/refunds`, {
      token: shop.token,
      body: { amount: '3', to: from.address },
    });
    expect(created.status, created.text).toBe(201);
    const refund = created.body;
    expect(refund).toMatchObject({
      status: 'PENDING',
      payUrl: `tron:${from.address}?amount=3`,
      qrData: from.address,
    });
    expect(refund.transaction.estimatedCost).toMatchObject({
      energy: expect.any(Number),
      bandwidth: expect.any(Number),
      trxBalance: '100', // the local chain's new wallets hold 100 TRX
      covered: true,
    });
    expect(refund.transaction.estimatedCost.bandwidth).toBeGreaterThan(300);
    const sent = await tron.broadcast(await tron.sign(refund.transaction.transaction, shop.key));
    expect(sent.result, JSON.stringify(sent)).toBe(true);
    await tron.solidify();
    let status = '';
    for (let i = 0; i < 100 && status !== 'SUCCEEDED'; i++) {
      await h.server.jobs.runNow('verify-refunds');
      const list = await h.server.api('GET', `/orders/${order.reference}/refunds`, { token: shop.token });
      status = (list.body.items as { id: string; status: string }[]).find((r) => r.id === refund.id)!.status;
    }
    expect(status).toBe('SUCCEEDED');
    expect((await h.getOrder(shop, order.reference)).amountRefunded).toBe('3.000000');
  });

  it("the payer's choice: paymentOptions all includes TRON when the merchant has a TRON wallet", async () => {
    const shop = await newShop();
    const solanaWallet = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
    const added = await h.server.api('POST', '/users/me/wallets', {
      token: shop.token,
      body: { network: 'SOLANA', public_address: solanaWallet },
    });
    expect(added.status, added.text).toBe(201);
    const order = await h.createOrder(shop, { network: 'SOLANA', amount: '4', paymentOptions: 'all' });
    const options = order.paymentOptions as { network: string; qrData: string; amount: string }[];
    expect(options.map((o) => o.network)).toEqual(['SOLANA', 'TRON']);
    const tronOption = options.find((o) => o.network === 'TRON')!;
    expect(tronOption.qrData).toBe(shop.wallet);
    await tron.transfer({ from: await payer(), to: shop.wallet, units: 4_000_000n });
    await tron.solidify();
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid.paidWith).toEqual({ network: 'TRON', token: 'USDT' });
  });

  it('the RPC answering 429 for a while: nothing lost, nothing doubled', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '6.5' });
    const txId = await tron.transfer({ from: await payer(), to: shop.wallet, units: 6_500_000n });
    await tron.solidify();
    tron.injectFault({ kind: '429', scope: 'all', requests: 40 });
    await h.runJobsFor(4);
    tron.injectFault({ kind: 'busy', scope: 'http', requests: 10 });
    const paid = await h.settle(shop, order.reference, 'PAID', { timeoutMs: 30_000 });
    tron.clearFault();
    expect(paid).toMatchObject({ amountReceived: '6.500000', txId });
    await h.runJobsFor(3);
    expect((await paymentsOf(shop, order.reference)).length).toBe(1);
    expect(h.webhookTypes(shop, order.reference).filter((t) => t === 'order.paid')).toHaveLength(1);
    expect([...tron.apiKeys]).toEqual(['test-key']);
  });
});
