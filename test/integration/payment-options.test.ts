import { Keypair } from '@solana/web3.js';
import { decodeFunctionData, erc20Abi, getAddress, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { parseUnits } from '../../contract/decimal';
import {
  BSC_CONFIRMATIONS,
  startOptionChains,
  units18,
  type OptionChains,
  type OptionShop,
} from '../support/option-chains';
import { usePaymentStack, type PaidOrder } from '../support/payment-harness';
import { refundDrivers } from '../support/refund-chains';
import { expectErrorBody } from '../support/test-server';

/**
 * The payer's choice of network and token (issue 29) on the local chains: Solana and Polygon
 * (USDT, 6 decimals) and BSC (USDT, 18 decimals). One order, several ways to pay: each option has
 * its own wallet, amount and links; a transfer on any of them credits the order by the same
 * evidence ladder, and the order's sums add 6- and 18-decimal amounts exactly.
 */

let chains: OptionChains['chains'];
let bsc: OptionChains['bsc'];
let h: OptionChains['h'];
let stack: OptionChains;

usePaymentStack(
  async () => {
    stack = await startOptionChains();
    ({ chains, bsc, h } = stack);
  },
  () => stack?.parts() ?? [],
);

const drivers = refundDrivers(() => chains);
const units6 = (amount: string) => parseUnits(amount, 6);
const newShop = () => stack.newShop();
type Shop = OptionShop;

const ALL = [
  { network: 'POLYGON', token: 'USDT' },
  { network: 'BSC', token: 'USDT' },
];

async function createOrder(shop: Shop, body: Record<string, unknown>) {
  return h.createOrder(shop, { network: 'SOLANA', paymentOptions: ALL, ...body });
}

type Option = {
  network: string;
  token: string;
  decimals: number;
  recipient: string;
  amount: string;
  amountDue: string;
  amountUnique: boolean;
  payUrl: string;
  qrImageUrl: string;
  txRequestUrl: string | null;
  tokenMintOrContract: string;
};
const optionsOf = (order: PaidOrder) => order.paymentOptions as Option[];
const optionOn = (order: PaidOrder, network: string) => optionsOf(order).find((o) => o.network === network)!;

const bscPayer = () => stack.bscPayer();
const payBsc = (...args: Parameters<OptionChains['payBsc']>) => stack.payBsc(...args);
async function unattributed(shop: Shop) {
  const res = await h.server.api('GET', '/users/me/unattributed-payments', { token: shop.token });
  expect(res.status, res.text).toBe(200);
  return res.body.items as { txId: string; network: string; amount: string }[];
}

describe('creating an order with payment options', () => {
  it('gives each option its own wallet, amount in its own decimals, links and QR; the first is the order itself', async () => {
    const { shop, keys } = await newShop();
    const order = await createOrder(shop, {
      amount: '10',
      paymentOptions: [...ALL, { network: 'SOLANA', token: 'USDT' }, { network: 'POLYGON', token: 'USDT' }],
    });
    const options = optionsOf(order);
    // De-duplicated, the order's own network and token first.
    expect(options.map((o) => `${o.network} ${o.token}`)).toEqual([
      'SOLANA USDT',
      'POLYGON USDT',
      'BSC USDT',
    ]);
    expect(options[0]).toMatchObject({
      recipient: order.recipient,
      amount: order.amount,
      payUrl: order.payUrl,
      txRequestUrl: order.txRequestUrl,
      decimals: 6,
    });
    const bscOption = optionOn(order, 'BSC');
    expect(bscOption).toMatchObject({
      decimals: 18,
      amount: '10.000000',
      amountDue: '10.000000',
      amountUnique: true,
      recipient: keys.bsc.address,
      tokenMintOrContract: bsc.usdt,
      txRequestUrl: null,
      payUrl: `ethereum:${bsc.usdt}@56/transfer?address=${keys.bsc.address}&uint256=${units18('10')}`,
    });
    expect(bscOption.qrImageUrl).toMatch(
      new RegExp(`/pay/${order.reference}/qr\\.svg\\?network=BSC&token=USDT$`),
    );
    expect(order.paidWith).toBeNull();
    const qr = await h.server.api('GET', `/pay/${order.reference}/qr.svg?network=BSC&token=USDT`);
    expect(qr.status).toBe(200);

    // "all": every network and token that is on and has a wallet of the merchant's.
    const all = await h.createOrder(shop, { network: 'POLYGON', amount: '3', paymentOptions: 'all' });
    expect(optionsOf(all).map((o) => o.network)).toEqual(['POLYGON', 'SOLANA', 'BSC']);

    // The payer's page lists them with what is due on each.
    const info = await h.server.api('GET', `/pay/${order.reference}/info`);
    expect(info.status, info.text).toBe(200);
    expect(info.body.paymentOptions.map((o: Option) => [o.network, o.amountDue])).toEqual([
      ['SOLANA', '10.000000'],
      ['POLYGON', '10.000000'],
      ['BSC', '10.000000'],
    ]);
    // The transaction request picks an option; one the order does not have is a 400.
    const req = await h.server.api('GET', `/pay/tx-request/${order.reference}?network=BSC&token=USDT`);
    expect(req.status, req.text).toBe(200);
    expect(req.body).toMatchObject({ network: 'BSC', chainId: 56, to: bsc.usdt, amount: '10.000000' });
    expect(decodeFunctionData({ abi: erc20Abi, data: req.body.data as Hex }).args).toEqual([
      getAddress(keys.bsc.address),
      units18('10'),
    ]);
    const none = await h.server.api('GET', `/pay/tx-request/${order.reference}?network=ETHEREUM`);
    expectErrorBody(none, 400, 'VALIDATION_ERROR');
  });

  it('raises each option on its own wallet and token to keep amounts unique', async () => {
    const { shop } = await newShop();
    const first = await createOrder(shop, {
      amount: '4',
      paymentOptions: [{ network: 'BSC', token: 'USDT' }],
    });
    const second = await createOrder(shop, { amount: '4' });
    expect(optionsOf(first).map((o) => o.amount)).toEqual(['4.000000', '4.000000']);
    // Solana's and BSC's 4 are held by the first order; Polygon's was free.
    expect(optionsOf(second).map((o) => [o.network, o.amount])).toEqual([
      ['SOLANA', '4.000001'],
      ['POLYGON', '4.000000'],
      ['BSC', '4.000001'],
    ]);
    const audit = await h.auditOf(shop, second.reference);
    expect(audit[0]!.data).toMatchObject({
      amount: '4.000001',
      paymentOptions: [
        { network: 'POLYGON', amount: '4.000000' },
        { network: 'BSC', amount: '4.000001', amountAdjustedFrom: '4.000000' },
      ],
    });
  });

  it('refuses an option without a merchant wallet, or on a network that is off, naming it (400)', async () => {
    const shop = await h.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
    const withOption = (network: string) =>
      h.server.api('POST', '/orders', {
        token: shop.token,
        body: { network: 'SOLANA', token: 'USDT', amount: '5', paymentOptions: [{ network, token: 'USDT' }] },
      });
    const res = await withOption('POLYGON');
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details[0]).toEqual({
      path: 'body.paymentOptions.0.network',
      message: 'no POLYGON receiving wallet: add one with POST /users/me/wallets',
    });
    const off = await withOption('ETHEREUM');
    expectErrorBody(off, 400, 'VALIDATION_ERROR');
    expect(off.body.error.details[0].path).toBe('body.paymentOptions.0.network');
    // "all" with one wallet: the order's one option.
    const all = await h.createOrder(shop, { amount: '5', paymentOptions: 'all' });
    expect(optionsOf(all)).toHaveLength(1);
  });
});

describe('wallets of payment options', () => {
  it('refuses to remove a wallet that an open order pays into as one of its options (409)', async () => {
    const { shop } = await newShop();
    await createOrder(shop, { amount: '2', paymentOptions: [{ network: 'BSC', token: 'USDT' }] });
    const wallets = await h.server.api('GET', '/users/me/wallets', { token: shop.token });
    const bscWallet = (wallets.body.items as { wallet_id: string; network: string }[]).find(
      (w) => w.network === 'BSC',
    )!;
    const polygonWallet = (wallets.body.items as { wallet_id: string; network: string }[]).find(
      (w) => w.network === 'POLYGON',
    )!;
    const refused = await h.server.api('DELETE', `/users/me/wallets/${bscWallet.wallet_id}`, {
      token: shop.token,
    });
    expectErrorBody(refused, 409, 'CONFLICT');
    // A wallet no open order pays into goes.
    const removed = await h.server.api('DELETE', `/users/me/wallets/${polygonWallet.wallet_id}`, {
      token: shop.token,
    });
    expect(removed.status, removed.text).toBe(204);
  });
});

describe('paying on any option', () => {
  it('pays on a non-first option by its tag, found by the scanner unreported', async () => {
    const { shop } = await newShop();
    const order = await createOrder(shop, { amount: '10' });
    const payer = await drivers.polygon.newPayer();
    const txId = await drivers.polygon.transfer(
      payer.key,
      optionOn(order, 'POLYGON').recipient,
      units6('10'),
      order.reference,
    );
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({
      amountReceived: '10.000000',
      txId,
      paidWith: { network: 'POLYGON', token: 'USDT' },
    });
    expect(optionsOf(paid).every((o) => o.amountDue === '0.000000')).toBe(true);
    expect(await h.ledgerOf(shop, order.reference)).toEqual([
      expect.objectContaining({
        txId,
        network: 'POLYGON',
        token: 'USDT',
        amount: '10.000000',
        matchedBy: 'tag',
      }),
    ]);
    // The event carries the options and paidWith; its payment, the network and token.
    const hook = h.webhooksFor(shop, order.reference).find((w) => w.json.type === 'order.paid')!;
    expect(hook.json.data.order.paidWith).toEqual({ network: 'POLYGON', token: 'USDT' });
    expect((hook.json.data as { payment?: unknown }).payment).toMatchObject({
      network: 'POLYGON',
      token: 'USDT',
    });
  });

  it('pays on the 18-decimal option by its exact amount, unreported', async () => {
    const { shop } = await newShop();
    const order = await createOrder(shop, { amount: '7.25' });
    const bscOption = optionOn(order, 'BSC');
    const txId = await payBsc(await bscPayer(), bscOption.recipient, units18(bscOption.amount));
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '7.250000', paidWith: { network: 'BSC', token: 'USDT' } });
    expect(await h.ledgerOf(shop, order.reference)).toEqual([
      expect.objectContaining({ txId, network: 'BSC', amount: '7.250000', matchedBy: 'amount' }),
    ]);
  });

  it('takes part on one network and the rest on another, summing 6 and 18 decimals exactly', async () => {
    const { shop } = await newShop();
    const order = await createOrder(shop, { amount: '10' });
    const solanaPayer = await drivers.solana.newPayer();
    await drivers.solana.transfer(solanaPayer.key, order.recipient, units6('4'), order.reference);
    const part = await h.settle(shop, order.reference, 'UNDERPAID');
    expect(part).toMatchObject({
      amountReceived: '4.000000',
      paidWith: { network: 'SOLANA', token: 'USDT' },
    });
    const info = await h.server.api('GET', `/pay/${order.reference}/info`);
    expect(info.body.paymentOptions.map((o: Option) => [o.network, o.amountDue])).toEqual([
      ['SOLANA', '6.000000'],
      ['POLYGON', '6.000000'],
      ['BSC', '6.000000'],
    ]);
    // The rest on BSC by the exact amount due there, one base unit of 10^-18 over.
    const rest = units18('6') + 1n;
    await payBsc(await bscPayer(), optionOn(order, 'BSC').recipient, rest, order.reference);
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({
      amountReceived: '10.000000000000000001',
      paidWith: { network: 'SOLANA', token: 'USDT' },
    });
    expect((await h.ledgerOf(shop, order.reference)).map((p) => [p.network, p.amount])).toEqual([
      ['SOLANA', '4.000000'],
      ['BSC', '6.000000000000000001'],
    ]);
  });

  it('credits a payment on a second option as an overpayment, refundable on that network', async () => {
    const { shop, keys } = await newShop();
    const order = await createOrder(shop, { amount: '10' });
    const polygonPayer = await drivers.polygon.newPayer();
    await drivers.polygon.transfer(
      polygonPayer.key,
      optionOn(order, 'POLYGON').recipient,
      units6('10'),
      order.reference,
    );
    await h.settle(shop, order.reference, 'PAID');
    // Paid again on BSC, by the exact amount, unreported: still this order's (its amounts stay held).
    const payer = await bscPayer();
    await payBsc(payer, optionOn(order, 'BSC').recipient, units18('10'));
    await h.runJobs(async () => (await h.getOrder(shop, order.reference)).amountReceived === '20.000000');
    const twice = await h.getOrder(shop, order.reference);
    expect(twice).toMatchObject({
      status: 'PAID',
      amountRefundable: '20.000000',
      paidWith: { network: 'POLYGON' },
    });

    // More than BSC received is refused, whatever the order received in all.
    const tooMuch = await h.server.api('POST', `/orders/${order.reference}/refunds`, {
      token: shop.token,
      body: { network: 'BSC', token: 'USDT', amount: '10.5', to: payer.address },
    });
    expectErrorBody(tooMuch, 400, 'VALIDATION_ERROR');
    expect(tooMuch.body.error.details[0].message).toContain('received 10.000000 USDT on BSC');
    const created = await h.server.api('POST', `/orders/${order.reference}/refunds`, {
      token: shop.token,
      body: { network: 'BSC', token: 'USDT', to: payer.address, reason: 'paid twice' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      network: 'BSC',
      token: 'USDT',
      decimals: 18,
      amount: '10.000000',
      from: keys.bsc.address,
      status: 'PENDING',
    });
    const built = created.body.transaction as { to: Address; data: Hex };
    expect(built.to).toBe(bsc.usdt);
    const before = await bsc.evm.balanceOf(bsc.usdt, payer.address);
    await bsc.evm.sendTransaction({ from: keys.bsc, to: built.to, data: built.data });
    await bsc.evm.mine(BSC_CONFIRMATIONS);
    for (let i = 0; i < 20; i++) {
      await h.server.jobs.runNow('verify-refunds');
      const res = await h.server.api('GET', `/orders/${order.reference}/refunds`, { token: shop.token });
      if (res.body.items[0].status === 'SUCCEEDED') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await bsc.evm.balanceOf(bsc.usdt, payer.address)).toBe(before + units18('10'));
    expect(await h.getOrder(shop, order.reference)).toMatchObject({
      amountRefunded: '10.000000',
      amountRefundable: '10.000000',
    });
    // The default option: the one that received the most (Polygon now), the earlier on a tie.
    const next = await h.server.api('POST', `/orders/${order.reference}/refunds`, {
      token: shop.token,
      body: { to: polygonPayer.address },
    });
    expect(next.status, next.text).toBe(201);
    expect(next.body).toMatchObject({ network: 'POLYGON', amount: '10.000000', decimals: 6 });
  });
});

describe('reports and quotes on payment options', () => {
  it("takes the merchant's attribution of a transfer on a non-first option, naming its network", async () => {
    const { shop } = await newShop();
    const order = await createOrder(shop, { amount: '10' });
    // Short by an exchange's fee: neither the tag nor the exact amount.
    const txId = await payBsc(await bscPayer(), optionOn(order, 'BSC').recipient, units18('9.99'));
    const wrong = await h.server.api('POST', `/orders/${order.reference}/submit-tx`, {
      token: shop.token,
      body: { txId, network: 'ETHEREUM' },
    });
    expectErrorBody(wrong, 400, 'VALIDATION_ERROR');
    expect(wrong.body.error.details[0].path).toBe('body.network');
    // Without a network: Polygon's and BSC's ids look alike, so the report must say which.
    const unnamed = await h.server.api('POST', `/orders/${order.reference}/submit-tx`, {
      token: shop.token,
      body: { txId },
    });
    expectErrorBody(unnamed, 400, 'VALIDATION_ERROR');
    expect(unnamed.body.error.details[0]).toMatchObject({ path: 'body.network' });
    expect(unnamed.body.error.details[0].message).toContain('POLYGON, BSC');
    const res = await h.server.api('POST', `/orders/${order.reference}/submit-tx`, {
      token: shop.token,
      body: { txId, network: 'BSC' },
    });
    expect(res.status, res.text).toBe(202);
    const part = await h.settle(shop, order.reference, 'UNDERPAID');
    expect(part).toMatchObject({ amountReceived: '9.990000', paidWith: { network: 'BSC', token: 'USDT' } });
    expect(await h.ledgerOf(shop, order.reference)).toEqual([
      expect.objectContaining({
        txId,
        network: 'BSC',
        token: 'USDT',
        amount: '9.990000',
        matchedBy: 'claim',
      }),
    ]);
  });

  it('converts a quote once: every option asks the same price in its own decimals', async () => {
    const { shop } = await newShop();
    const order = await createOrder(shop, { quoteCurrency: 'BRL', quoteAmount: '52.50' });
    const amounts = optionsOf(order).map((o) => [o.network, o.decimals, o.amount]);
    expect(new Set(amounts.map(([, , amount]) => amount)).size).toBe(1);
    expect(optionOn(order, 'BSC').payUrl).toContain(`uint256=${units18(order.amount)}`);
  });
});

describe('payment options against other people', () => {
  it("does not credit a transfer of one option's exact amount to another option's wallet", async () => {
    const { shop } = await newShop();
    // A first order holds Solana's 10: the next one's Solana option is 10.000001, its Polygon one 10.
    await h.createOrder(shop, { amount: '10' });
    const order = await createOrder(shop, { amount: '10' });
    expect(order.amount).toBe('10.000001');
    expect(optionOn(order, 'POLYGON').amount).toBe('10.000000');
    // Option A's (Solana's) exact amount, sent to option B's (Polygon's) wallet without the tag.
    const payer = await drivers.polygon.newPayer();
    const txId = await drivers.polygon.transfer(
      payer.key,
      optionOn(order, 'POLYGON').recipient,
      units6('10.000001'),
    );
    await h.runJobs(async () => (await unattributed(shop)).some((p) => p.txId === txId));
    await h.expectOrder(shop, order.reference, 'PENDING', '0.000000');
  });

  it("never matches another merchant's order options", async () => {
    const mine = await newShop();
    const theirs = await newShop();
    const theirOrder = await createOrder(theirs.shop, { amount: '7.5' });
    // Their Polygon option's exact amount, to my Polygon wallet.
    const payer = await drivers.polygon.newPayer();
    const myWallet = mine.keys.polygon.address;
    const txId = await drivers.polygon.transfer(
      payer.key,
      myWallet,
      units6(optionOn(theirOrder, 'POLYGON').amount),
    );
    await h.runJobs(async () => (await unattributed(mine.shop)).some((p) => p.txId === txId));
    expect(await h.getOrder(theirs.shop, theirOrder.reference)).toMatchObject({ status: 'PENDING' });
    // Their order's tag on a transfer to my wallet pays nothing of theirs either.
    const tagged = await drivers.polygon.transfer(payer.key, myWallet, units6('7.5'), theirOrder.reference);
    await h.runJobs(async () => (await unattributed(mine.shop)).some((p) => p.txId === tagged));
    expect(await h.getOrder(theirs.shop, theirOrder.reference)).toMatchObject({ status: 'PENDING' });
  });
});
