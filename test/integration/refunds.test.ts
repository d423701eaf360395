import { Keypair } from '@solana/web3.js';
import { toHex, type Address, type Hex } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeBase58 } from '../../server/lib/base58';
import { refundAddressProofMessage } from '../../contract';
import { createClient } from '../../sdk/src/client';
import { sendRefund } from '../../sdk/src/refunds';
import type { LocalWallet } from '../../sandbox/chains/evm/local-evm';
import { sleep, startPaymentHarness, usePaymentStack } from '../support/payment-harness';
import type { HarnessShop, PaidOrder, PaymentHarness } from '../support/payment-harness';
import {
  paidOrderOn,
  refundDrivers,
  startRefundChains,
  REFUND_POLYGON_CONFIRMATIONS,
  type RefundChains,
  type RefundDriver,
  type RefundKey,
} from '../support/refund-chains';
import { TEST_BOT_TOKEN } from '../support/delivery-stack';
import { startTelegramServer } from '../support/telegram-server';
import { expectErrorBody, startTestServer } from '../support/test-server';

/**
 * The payments ledger, underpayment tolerance and refunds, end to end on the local Solana chain and
 * a local Polygon chain: the merchant's wallet keys are the test's, the service only builds, links
 * and verifies. Jobs are driven by hand. A second server with a 2-second REFUND_DEADLINE_SECONDS
 * (same database, same chains) shows a refund that is never sent failing.
 */

const DEADLINE_SECONDS = 2;

let chains: RefundChains;
let h: PaymentHarness;
let short: PaymentHarness;
let telegram: Awaited<ReturnType<typeof startTelegramServer>>;

usePaymentStack(
  async () => {
    [chains, telegram] = await Promise.all([startRefundChains(), startTelegramServer(TEST_BOT_TOKEN)]);
    const env = {
      ...chains.env,
      PUBLIC_BASE_URL: 'https://pay.example.test',
      REFUND_ADDRESS_RATE_LIMIT_MAX: '100000',
      MESSENGER_API_BASE_URL: telegram.baseUrl,
    };
    // Every line the service logs (requests included), to show no refund id is among them.
    h = await startPaymentHarness(env, { logLevel: 'info' });
    short = await startPaymentHarness(
      { ...env, REFUND_DEADLINE_SECONDS: String(DEADLINE_SECONDS) },
      { logLevel: 'info' },
    );
  },
  () => [h, short, chains?.solana, chains?.polygon, telegram],
);

afterEach(() => {
  // A refund id opens the payer's page, where the refund's address is given: no log line holds one.
  for (const harness of [h, short]) expect(JSON.stringify(harness.logs)).not.toMatch(/rf_[0-9a-f]{32}/);
});

/** The shop's events also go to a Telegram chat of its own; `texts` waits for an order's messages. */
async function withMessenger(shop: HarnessShop) {
  const chatId = String(100_000 + Math.floor(Math.random() * 900_000_000));
  const patched = await h.server.api('PATCH', '/users/me', {
    token: shop.token,
    body: { messenger_chat_id: chatId, messenger_bot_token: TEST_BOT_TOKEN },
  });
  expect(patched.status, patched.text).toBe(200);
  return {
    async texts(reference: string, count: number) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        await h.deliverWebhooks();
        const texts = telegram.sent
          .filter((m) => m.chatId === chatId && m.text.includes(reference))
          .map((m) => m.text);
        if (texts.length >= count) return texts;
        if (Date.now() > deadline) throw new Error(`${texts.length} messages for ${reference}, not ${count}`);
        await sleep(50);
      }
    },
  };
}

type Refund = {
  id: string;
  orderReference: string;
  status: string;
  network: string;
  amount: string;
  from: string;
  to: string | null;
  tag: string;
  refundUrl: string;
  payUrl: string | null;
  qrData: string | null;
  transaction: { transaction: string } | { chainId: number; to: string; data: string; value: '0' } | null;
  txId: string | null;
  failureReason: string | null;
  deadlineAt: string;
};
type Order = PaidOrder & { amountRefunded: string; amountRefundable: string };

/** A network as these tests drive it; a refund is sent the way the merchant's wallet would send it. */
type Driver = RefundDriver & {
  sendRefund(harness: PaymentHarness, refund: Refund, key: RefundKey): Promise<string>;
};
const drivers = refundDrivers(() => chains);

const solanaDriver: Driver = {
  ...drivers.solana,
  async sendRefund(harness, refund, key) {
    // The merchant's wallet speaks Solana Pay: the link names the request, POST {account} builds it.
    expect(refund.payUrl).toBe(`solana:https://pay.example.test/pay/refunds/${refund.id}/tx-request`);
    const label = await harness.server.api('GET', `/pay/refunds/${refund.id}/tx-request`);
    expect(label.status, label.text).toBe(200);
    expect(label.body.icon).toBe('https://pay.example.test/pay/icon.svg');
    const res = await harness.server.api('POST', `/pay/refunds/${refund.id}/tx-request`, {
      body: { account: (key as Keypair).publicKey.toBase58() },
    });
    expect(res.status, res.text).toBe(200);
    return chains.solana.signAndSend(res.body.transaction, key as Keypair);
  },
};

const polygonDriver: Driver = {
  ...drivers.polygon,
  async sendRefund(_harness, refund, key) {
    const built = refund.transaction as { chainId: number; to: Address; data: Hex; value: '0' };
    expect(built).toMatchObject({ chainId: 137, to: chains.polygonUsdt, value: '0' });
    expect(built.data.slice(-64)).toBe(toHex(decodeBase58(refund.tag)!).slice(2));
    return drivers.polygon.sendBuilt(refund, key);
  },
};

/** The SDK's sendRefund wallet options for `key` on the driver's network. */
function walletOf(d: Driver, key: RefundKey) {
  return d.network === 'SOLANA'
    ? { solana: { keypair: key as Keypair, connection: chains.solana.connection } }
    : { evm: { account: key as LocalWallet, rpcUrl: chains.polygon.url } };
}

const units = (amount: string) => BigInt(Math.round(Number(amount) * 1e6));

describe.each([solanaDriver, polygonDriver])('$network refunds', (d) => {
  /** A shop, a payer, and an order of `amount` paid with `paid` (tagged), settled. */
  async function paidOrder(amount: string, paid = amount, harness = h) {
    const { shop, key } = await d.newShop(harness);
    const payer = await d.newPayer();
    const order = await harness.createOrder(shop, { amount });
    const txId = await d.transfer(payer.key, shop.wallet, units(paid), order.reference);
    const status = units(paid) >= units(amount) ? 'PAID' : 'UNDERPAID';
    const settled = (await harness.settle(shop, order.reference, status)) as Order;
    return { shop, key, payer, order: settled, txId };
  }

  const createRefund = (
    shop: HarnessShop,
    reference: string,
    body: object,
    headers?: Record<string, string>,
  ) => h.server.api<Refund>('POST', `/orders/${reference}/refunds`, { token: shop.token, body, headers });
  const listRefunds = async (shop: HarnessShop, reference: string) => {
    const res = await h.server.api<{ items: Refund[] }>('GET', `/orders/${reference}/refunds`, {
      token: shop.token,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.items;
  };
  const refundOf = async (shop: HarnessShop, reference: string, id: string) =>
    (await listRefunds(shop, reference)).find((r) => r.id === id)!;

  /** An order of 8 paid by two wallets, Alice 5 and Bob 3, each naming it. */
  async function paidByTwo() {
    const { shop } = await d.newShop(h);
    const [alice, bob] = [await d.newPayer(), await d.newPayer()];
    const order = await h.createOrder(shop, { amount: '8' });
    await d.transfer(alice.key, shop.wallet, units('5'), order.reference);
    await d.transfer(bob.key, shop.wallet, units('3'), order.reference);
    await h.settle(shop, order.reference, 'PAID');
    return { shop, alice, bob, order };
  }
  /** The payer's page: gives `address` (default the signer's own) for the refund, signed by `signer`'s wallet. */
  const giveSigned = async (
    refund: { id: string },
    signer: { address: string; key: RefundKey },
    address = signer.address,
  ) =>
    h.server.api('POST', `/pay/refunds/${refund.id}/address`, {
      body: { address, signature: await d.sign(signer.key, refundAddressProofMessage(refund.id, address)) },
    });
  /** The status a refund takes when `signer` gives a fresh address of its own for it. */
  const statusGiven = async (refund: { id: string }, signer: { address: string; key: RefundKey }) => {
    const res = await giveSigned(refund, signer, d.freshAddress());
    expect(res.status, res.text).toBe(200);
    return res.body.status as string;
  };
  /** Runs the refund verifier (and the webhook sender) until the refund has `status`. */
  async function settleRefund(shop: HarnessShop, reference: string, id: string, status: string, harness = h) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      await harness.server.jobs.runNow('verify-refunds');
      await harness.deliverWebhooks();
      const refund = await refundOf(shop, reference, id);
      if (refund.status === status) return refund;
      if (Date.now() > deadline) throw new Error(`refund ${id} is ${refund.status}, not ${status}`);
      await sleep(100);
    }
  }

  it('keeps a ledger of credited transfers, and events caused by one carry it', async () => {
    const { shop, payer, order, txId } = await paidOrder('10');
    const ledger = await h.server.api('GET', `/orders/${order.reference}/payments`, { token: shop.token });
    expect(ledger.status, ledger.text).toBe(200);
    expect(ledger.body.items).toEqual([
      {
        txId: d.network === 'SOLANA' ? txId : txId.toLowerCase(),
        network: d.network,
        token: 'USDT',
        from: payer.address,
        amount: '10.000000',
        matchedBy: 'tag',
        blockTime: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    const paidHook = h.webhooksFor(shop, order.reference).find((w) => w.json.type === 'order.paid')!;
    expect((paidHook.json.data as { payment?: unknown }).payment).toEqual(ledger.body.items[0]);
    expect(order.amountRefunded).toBe('0.000000');
    // Another merchant's order is not found.
    const other = await d.newShop(h);
    expectErrorBody(
      await h.server.api('GET', `/orders/${order.reference}/payments`, { token: other.shop.token }),
      404,
      'NOT_FOUND',
    );
  });

  it('refunds everything to a given address: built, sent from the wallet, verified, SUCCEEDED', async () => {
    const { shop, key, payer, order } = await paidOrder('10');
    const before = await d.balance(payer.address);
    const created = await createRefund(shop, order.reference, { to: payer.address, reason: 'Out of stock' });
    expect(created.status, created.text).toBe(201);
    const refund = created.body;
    expect(refund).toMatchObject({
      orderReference: order.reference,
      status: 'PENDING',
      network: d.network,
      amount: '10.000000',
      from: shop.wallet,
      to: payer.address,
      refundUrl: `https://pay.example.test/refund/${refund.id}`,
      txId: null,
    });
    expect(refund.id).toMatch(/^rf_[0-9a-f]{32}$/);
    expect(refund.qrData).toBe(refund.payUrl);
    expect(refund.transaction).not.toBeNull();
    if (d.network === 'POLYGON')
      expect(refund.payUrl).toBe(
        `ethereum:${chains.polygonUsdt}@137/transfer?address=${payer.address}&uint256=10000000`,
      );
    // Nothing more is refundable while it is pending.
    expectErrorBody(
      await createRefund(shop, order.reference, { amount: '0.000001' }),
      400,
      'VALIDATION_ERROR',
    );

    const sent = await d.sendRefund(h, refund, key);
    const done = await settleRefund(shop, order.reference, refund.id, 'SUCCEEDED');
    expect(done.txId).toBe(d.network === 'SOLANA' ? sent : sent.toLowerCase());
    expect(done.transaction).toBeNull();
    expect(await d.balance(payer.address)).toBe(before + 10_000_000n);
    const after = (await h.getOrder(shop, order.reference)) as Order;
    expect(after).toMatchObject({ status: 'PAID', amountReceived: '10.000000', amountRefunded: '10.000000' });

    const audit = await h.auditOf(shop, order.reference);
    expect(audit.map((e) => e.type)).toEqual(expect.arrayContaining(['refund.created', 'refund.succeeded']));
    expect(audit.find((e) => e.type === 'refund.succeeded')!.data).toMatchObject({
      refundId: refund.id,
      matchedBy: 'tag',
      amount: '10.000000',
    });
    const hooks = h.webhooksFor(shop, order.reference).filter((w) => w.json.type.startsWith('refund.'));
    expect(hooks.map((w) => w.json.type)).toEqual(['refund.created', 'refund.succeeded']);
    const succeeded = hooks[1]!.json.data as unknown as { refund: Refund; order: Order };
    expect(succeeded.refund).toMatchObject({ id: refund.id, status: 'SUCCEEDED', txId: done.txId });
    expect(succeeded.order).toMatchObject({ reference: order.reference, amountRefunded: '10.000000' });
  });

  it('refunds in parts, never more than received less refunded (pending included): 400 above it', async () => {
    const { shop, key, payer, order } = await paidOrder('10');
    const first = await createRefund(shop, order.reference, { amount: '3', to: payer.address });
    expect(first.status, first.text).toBe(201);
    const tooMuch = await createRefund(shop, order.reference, { amount: '7.000001', to: payer.address });
    expectErrorBody(tooMuch, 400, 'VALIDATION_ERROR');
    expect(tooMuch.text).toMatch(/received 10\.000000 USDT, 3\.000000 .* 7\.000000 can be refunded/);
    await d.sendRefund(h, first.body, key);
    await settleRefund(shop, order.reference, first.body.id, 'SUCCEEDED');
    // The rest, by default everything that is left.
    const rest = await createRefund(shop, order.reference, { to: payer.address });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.amount).toBe('7.000000');
    await d.sendRefund(h, rest.body, key);
    await settleRefund(shop, order.reference, rest.body.id, 'SUCCEEDED');
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefunded).toBe('10.000000');
    expectErrorBody(await createRefund(shop, order.reference, {}), 400, 'VALIDATION_ERROR');
    expect((await listRefunds(shop, order.reference)).map((r) => [r.amount, r.status])).toEqual([
      ['3.000000', 'SUCCEEDED'],
      ['7.000000', 'SUCCEEDED'],
    ]);
  });

  it('says on the order what a new refund may still take (amountRefundable), by the rule the refund route applies', async () => {
    const { shop, key, payer, order } = await paidOrder('10');
    expect(order.amountRefundable).toBe('10.000000');
    const unpaid = (await h.createOrder(shop, { amount: '5' })) as Order;
    expect(unpaid.amountRefundable).toBe('0.000000');

    // A refund waiting for its transfer holds its amount: the order, its list and its events say 7.
    const first = await createRefund(shop, order.reference, { amount: '3', to: payer.address });
    expect(first.status, first.text).toBe(201);
    const held = (await h.getOrder(shop, order.reference)) as Order;
    expect(held).toMatchObject({ amountRefunded: '0.000000', amountRefundable: '7.000000' });
    const listed = await h.server.api<{ items: Order[] }>('GET', '/users/me/orders?per_page=50', {
      token: shop.token,
    });
    expect(listed.body.items.map((o) => [o.reference, o.amountRefundable])).toEqual([
      [unpaid.reference, '0.000000'],
      [order.reference, '7.000000'],
    ]);
    await h.deliverWebhooks();
    const createdHook = h.webhooksFor(shop, order.reference).find((w) => w.json.type === 'refund.created')!;
    expect((createdHook.json.data as unknown as { order: Order }).order.amountRefundable).toBe('7.000000');

    // The route takes exactly that much and not one base unit more.
    expectErrorBody(
      await createRefund(shop, order.reference, { amount: '7.000001', to: payer.address }),
      400,
      'VALIDATION_ERROR',
    );
    const rest = await createRefund(shop, order.reference, {
      amount: held.amountRefundable,
      to: payer.address,
    });
    expect(rest.status, rest.text).toBe(201);
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefundable).toBe('0.000000');

    // Sent and verified, the refunds count as refunded: still nothing left.
    await d.sendRefund(h, first.body, key);
    await settleRefund(shop, order.reference, first.body.id, 'SUCCEEDED');
    expect(await h.getOrder(shop, order.reference)).toMatchObject({
      amountRefunded: '3.000000',
      amountRefundable: '0.000000',
    });
  });

  it("refunds an overpayment's excess; an order that received nothing has nothing to refund", async () => {
    const { shop, key, payer, order } = await paidOrder('10', '12.5');
    expect(order.amountReceived).toBe('12.500000');
    const excess = await createRefund(shop, order.reference, { amount: '2.5', to: payer.address });
    expect(excess.status, excess.text).toBe(201);
    await d.sendRefund(h, excess.body, key);
    await settleRefund(shop, order.reference, excess.body.id, 'SUCCEEDED');
    expect(await h.getOrder(shop, order.reference)).toMatchObject({
      status: 'PAID',
      amountReceived: '12.500000',
      amountRefunded: '2.500000',
    });
    const unpaid = await h.createOrder(shop, { amount: '5' });
    expectErrorBody(
      await createRefund(shop, unpaid.reference, { to: payer.address }),
      400,
      'VALIDATION_ERROR',
    );
    expectErrorBody(await createRefund(shop, order.reference, { to: d.badAddress }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await createRefund(shop, order.reference, { to: shop.wallet }), 400, 'VALIDATION_ERROR');
  });

  it('refunds to the address the payer gives on the refund page, signed by the paying wallet: at once', async () => {
    const { shop, key, payer, order } = await paidOrder('8');
    const created = await createRefund(shop, order.reference, { amount: '5' });
    expect(created.status, created.text).toBe(201);
    const refund = created.body;
    expect(refund).toMatchObject({ status: 'AWAITING_ADDRESS', to: null, payUrl: null, transaction: null });

    const page = await h.server.api('GET', `/refund/${refund.id}`, {
      headers: { 'accept-language': 'fr;q=1, pt-BR;q=0.8, en;q=0.5' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('<html lang="pt-BR">');
    expect(page.text).toContain('Aguardando o seu endereço');
    expect((await h.server.api('GET', `/refund/${refund.id}?lang=es`)).text).toContain(
      'Esperando tu dirección',
    );
    const info = await h.server.api('GET', `/pay/refunds/${refund.id}`);
    expect(info.body).toMatchObject({
      id: refund.id,
      status: 'AWAITING_ADDRESS',
      amount: '5.000000',
      to: null,
    });
    expectErrorBody(await h.server.api('GET', `/pay/refunds/rf_${'0'.repeat(32)}`), 404, 'NOT_FOUND');

    const url = `/pay/refunds/${refund.id}/address`;
    expectErrorBody(
      await h.server.api('POST', url, { body: { address: d.badAddress } }),
      400,
      'VALIDATION_ERROR',
    );
    // The payer refunds to a wallet of theirs other than the one they paid from, and proves it
    // with the paying wallet: the message holds the address exactly as the body sends it.
    const wallet = d.freshAddress();
    const given = await giveSigned(refund, payer, wallet);
    expect(given.status, given.text).toBe(200);
    expect(given.body).toMatchObject({ status: 'PENDING', to: wallet });
    expectErrorBody(
      await h.server.api('POST', url, { body: { address: d.freshAddress() } }),
      409,
      'CONFLICT',
    );
    await h.deliverWebhooks();
    const created2 = h
      .webhooksFor(shop, order.reference)
      .filter((w) => w.json.type === 'refund.created')
      .map((w) => (w.json.data as unknown as { refund: Refund }).refund);
    expect(created2.map((r) => [r.status, r.to])).toEqual([
      ['AWAITING_ADDRESS', null],
      ['PENDING', wallet],
    ]);
    const audit = (await h.auditOf(shop, order.reference)).find((e) => e.type === 'refund.address_set');
    expect(audit).toMatchObject({
      actor: 'payer',
      data: { refundId: refund.id, to: wallet, signed: true, signedBy: payer.address, status: 'PENDING' },
    });

    const pending = await refundOf(shop, order.reference, refund.id);
    expect(pending.transaction).not.toBeNull();
    const before = await d.balance(wallet);
    await d.sendRefund(h, pending, key);
    await settleRefund(shop, order.reference, refund.id, 'SUCCEEDED');
    expect(await d.balance(wallet)).toBe(before + 5_000_000n);
    expect((await h.server.api('GET', `/pay/refunds/${refund.id}`)).body.status).toBe('SUCCEEDED');
    expect((await h.server.api('GET', `/refund/${refund.id}`)).text).toContain('Refund sent');
  });

  it('a stranger who knows the refund id gives his address first: nothing is built for it until the merchant approves', async () => {
    const { shop, key, payer, order } = await paidOrder('8');
    const messenger = await withMessenger(shop);
    const refund = (await createRefund(shop, order.reference, {})).body;
    const url = `/pay/refunds/${refund.id}/address`;
    const stranger = d.freshAddress();
    const taken = await h.server.api('POST', url, { body: { address: stranger } });
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body).toMatchObject({ status: 'AWAITING_APPROVAL', to: stranger });
    // The page tells whoever looks that the shop approves it first.
    expect((await h.server.api('GET', `/refund/${refund.id}`)).text).toContain('the shop must approve it');

    // Nothing the merchant's wallet could sign: no transaction, no link, no Solana Pay request.
    const waiting = await refundOf(shop, order.reference, refund.id);
    expect(waiting).toMatchObject({
      status: 'AWAITING_APPROVAL',
      to: stranger,
      transaction: null,
      payUrl: null,
    });
    if (d.network === 'SOLANA')
      expectErrorBody(
        await h.server.api('POST', `/pay/refunds/${refund.id}/tx-request`, {
          body: { account: shop.wallet },
        }),
        409,
        'CONFLICT',
      );
    const client = createClient({ baseUrl: h.server.url, token: shop.token });
    await expect(
      sendRefund({
        client,
        reference: order.reference,
        refundId: refund.id,
        ...walletOf(d, key),
      }),
    ).rejects.toThrow(/waits for your approval/);
    // The payer, coming second, can no longer give an address, signed or not: the merchant decides.
    expectErrorBody(await giveSigned(refund, payer), 409, 'CONFLICT');
    await h.server.jobs.runNow('verify-refunds');
    expect((await refundOf(shop, order.reference, refund.id)).status).toBe('AWAITING_APPROVAL');

    // Approving takes refunds:write; a key without it is refused, a stranger merchant finds nothing.
    const approveUrl = `/orders/${order.reference}/refunds/${refund.id}/approve`;
    const reader = await h.server.api('POST', '/users/me/api-keys', {
      token: shop.token,
      body: { name: 'reader', scopes: ['orders:read'] },
    });
    const writer = await h.server.api('POST', '/users/me/api-keys', {
      token: shop.token,
      body: { name: 'refunder', scopes: ['refunds:write'] },
    });
    expectErrorBody(await h.server.api('POST', approveUrl, { token: reader.body.secret }), 403, 'FORBIDDEN');
    const other = await d.newShop(h);
    expectErrorBody(await h.server.api('POST', approveUrl, { token: other.shop.token }), 404, 'NOT_FOUND');
    const approved = await h.server.api<Refund>('POST', approveUrl, { token: writer.body.secret });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ id: refund.id, status: 'PENDING', to: stranger });
    expect(approved.body.transaction).not.toBeNull();
    expectErrorBody(await h.server.api('POST', approveUrl, { token: shop.token }), 409, 'CONFLICT');

    const audit = await h.auditOf(shop, order.reference);
    expect(audit.find((e) => e.type === 'refund.address_set')).toMatchObject({
      actor: 'payer',
      data: { refundId: refund.id, to: stranger, signed: false, signedBy: null, status: 'AWAITING_APPROVAL' },
    });
    expect(audit.find((e) => e.type === 'refund.approved')).toMatchObject({
      actor: 'api_key',
      data: { refundId: refund.id, to: stranger, apiKeyId: writer.body.id, apiKeyName: 'refunder' },
    });
    await h.deliverWebhooks();
    const events = h
      .webhooksFor(shop, order.reference)
      .filter((w) => w.json.type.startsWith('refund.'))
      .map((w) => [w.json.type, (w.json.data as unknown as { refund: Refund }).refund.status]);
    expect(events).toEqual([
      ['refund.created', 'AWAITING_ADDRESS'],
      ['refund.created', 'AWAITING_APPROVAL'],
      ['refund.created', 'PENDING'],
    ]);
    // The requests are logged, their refund ids redacted (afterEach checks every line of the file).
    expect(h.logs.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^POST \/pay\/refunds\/rf_\[redacted\]\/address 200/),
        expect.stringMatching(/^POST \/orders\/\w+\/refunds\/rf_\[redacted\]\/approve 200/),
      ]),
    );
    // The merchant's chat hears of each step, and asks for the approval, without the refund id.
    const texts = await messenger.texts(order.reference, 3);
    expect(texts.join('\n')).toContain('approve it in the dashboard');
    for (const text of texts) expect(text).not.toMatch(/rf_[0-9a-f]{32}/);
  });

  it('refuses a signature that is not by a wallet that paid the order, or not of this address; it sets nothing', async () => {
    const { shop, payer, order } = await paidOrder('8');
    const refund = (await createRefund(shop, order.reference, {})).body;
    const url = `/pay/refunds/${refund.id}/address`;
    const thief = await d.newPayer();
    const refusals = [
      // Malformed for the network.
      { address: thief.address, signature: 'not-a-signature' },
      // Signed by the stranger himself: he sent nothing to this order.
      {
        address: thief.address,
        signature: await d.sign(thief.key, refundAddressProofMessage(refund.id, thief.address)),
      },
      // The payer's signature of another address, replayed with the thief's.
      {
        address: thief.address,
        signature: await d.sign(payer.key, refundAddressProofMessage(refund.id, payer.address)),
      },
      // The payer's signature for another refund.
      {
        address: thief.address,
        signature: await d.sign(payer.key, refundAddressProofMessage(`rf_${'1'.repeat(32)}`, thief.address)),
      },
    ];
    const answers = [];
    for (const body of refusals) {
      const res = await h.server.api('POST', url, { body });
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
      answers.push(res.body.error.details[0]);
    }
    expect(answers[0]).toMatchObject({ path: 'body.signature', message: expect.stringMatching(/signature/) });
    for (const answer of answers.slice(1))
      expect(answer).toMatchObject({
        path: 'body.signature',
        message: expect.stringContaining('by a wallet that sent a payment credited to this order'),
      });
    const still = await refundOf(shop, order.reference, refund.id);
    expect(still).toMatchObject({ status: 'AWAITING_ADDRESS', to: null });
    expect((await h.auditOf(shop, order.reference)).map((e) => e.type)).not.toContain('refund.address_set');
    // The payer's own signature still works afterwards.
    const given = await giveSigned(refund, payer);
    expect(given.status, given.text).toBe(200);
    expect(given.body).toMatchObject({ status: 'PENDING', to: payer.address });
  });

  it("a dust payment tagged with the order does not approve its sender's address: the merchant approves it first", async () => {
    // Alice pays the order in full; the merchant refunds it all, asking for the address.
    const { shop, payer: alice, order } = await paidOrder('8');
    const refund = (await createRefund(shop, order.reference, {})).body;
    expect(refund).toMatchObject({ status: 'AWAITING_ADDRESS', amount: '8.000000' });
    // Mallory knows the reference and the refund link: one base unit tagged with the order is
    // credited to it (an overpayment within the late window), which makes her one of its senders.
    const mallory = await d.newPayer();
    await d.transfer(mallory.key, shop.wallet, 1n, order.reference);
    await h.runJobs(async () => (await h.getOrder(shop, order.reference)).amountReceived === '8.000001');
    const ledger = await h.server.api('GET', `/orders/${order.reference}/payments`, { token: shop.token });
    expect(ledger.body.items.map((p: { from: string; amount: string }) => [p.from, p.amount])).toEqual([
      [alice.address, '8.000000'],
      [mallory.address, '0.000001'],
    ]);

    // Her signature is a payer's, but of a payment far short of the refund: recorded, not taken.
    const given = await giveSigned(refund, mallory);
    expect(given.status, given.text).toBe(200);
    expect(given.body).toMatchObject({ status: 'AWAITING_APPROVAL', to: mallory.address });
    expect(await refundOf(shop, order.reference, refund.id)).toMatchObject({
      status: 'AWAITING_APPROVAL',
      transaction: null,
      payUrl: null,
    });
    await h.server.jobs.runNow('verify-refunds');
    expect((await refundOf(shop, order.reference, refund.id)).status).toBe('AWAITING_APPROVAL');
    // The merchant's audit says who signed and why that was not enough.
    const audit = (await h.auditOf(shop, order.reference)).find((e) => e.type === 'refund.address_set');
    expect(audit).toMatchObject({
      actor: 'payer',
      data: {
        refundId: refund.id,
        to: mallory.address,
        signed: true,
        signedBy: mallory.address,
        signerPaid: '0.000001',
        status: 'AWAITING_APPROVAL',
        reason: expect.stringContaining('less than the refund'),
      },
    });
    // Alice, coming second, finds the address given: the merchant decides (and can refund her anew).
    expectErrorBody(await giveSigned(refund, alice), 409, 'CONFLICT');
  });

  it('of several payers, a signature approves at once only a refund no larger than what the signer paid', async () => {
    const { shop, alice, bob, order } = await paidByTwo();
    const [small, large, rest] = [
      (await createRefund(shop, order.reference, { amount: '3' })).body,
      (await createRefund(shop, order.reference, { amount: '4' })).body,
      (await createRefund(shop, order.reference, { amount: '1' })).body,
    ];
    // Bob paid 3: exactly the small refund (PENDING), not the 4 (the merchant approves it).
    expect(await statusGiven(small, bob)).toBe('PENDING');
    expect(await statusGiven(large, bob)).toBe('AWAITING_APPROVAL');
    // Alice paid 5: a partial refund of 1 is hers at once.
    expect(await statusGiven(rest, alice)).toBe('PENDING');
    const audit = (await h.auditOf(shop, order.reference)).filter((e) => e.type === 'refund.address_set');
    expect(audit.map((e) => [e.data.signedBy, e.data.signerPaid, e.data.status])).toEqual([
      [bob.address, '3.000000', 'PENDING'],
      [bob.address, '3.000000', 'AWAITING_APPROVAL'],
      [alice.address, '5.000000', 'PENDING'],
    ]);
  });

  it("a payer's signatures approve at once no more in all than it paid: refunds split within its share", async () => {
    const { shop, alice, bob, order } = await paidByTwo();
    const refund = async (amount: string) => (await createRefund(shop, order.reference, { amount })).body;
    // Bob paid 3: two refunds of 2, each within his share, are not both his to take.
    const [first, second, third] = [await refund('2'), await refund('2'), await refund('1')];
    expect(await statusGiven(first, bob)).toBe('PENDING');
    expect(await statusGiven(second, bob)).toBe('AWAITING_APPROVAL');
    // The one awaiting the merchant counts too: were it approved, he would have had 4.
    expect(await statusGiven(third, bob)).toBe('AWAITING_APPROVAL');
    const audit = (await h.auditOf(shop, order.reference)).filter((e) => e.type === 'refund.address_set');
    expect(audit[1]!.data).toMatchObject({
      signedBy: bob.address,
      status: 'AWAITING_APPROVAL',
      reason: expect.stringContaining('1.000000 of it not yet refunded to it or to addresses it signed'),
    });
    // Alice's payments are hers to sign for, whatever Bob signed.
    expect(await statusGiven(await refund('1'), alice)).toBe('PENDING');
  });

  it("what a payer was refunded by the merchant's approval, or straight to its wallet, counts against what its signature approves", async () => {
    const { shop, bob, order } = await paidByTwo();
    const refund = async (body: Record<string, string>) =>
      (await createRefund(shop, order.reference, body)).body;
    // Bob paid 3 and signs for 4: the merchant approves it.
    const oversized = await refund({ amount: '4' });
    expect(await statusGiven(oversized, bob)).toBe('AWAITING_APPROVAL');
    const approved = await h.server.api(
      'POST',
      `/orders/${order.reference}/refunds/${oversized.id}/approve`,
      {
        token: shop.token,
      },
    );
    expect(approved.status, approved.text).toBe(200);
    // His signature no longer approves anything at once: he has had more than he paid.
    expect(await statusGiven(await refund({ amount: '1' }), bob)).toBe('AWAITING_APPROVAL');

    // Another order: the merchant refunds 2 straight to Bob's wallet; his signature covers 1 more.
    const next = await paidByTwo();
    const direct = await createRefund(next.shop, next.order.reference, { amount: '2', to: next.bob.address });
    expect(direct.body.status).toBe('PENDING');
    const more = async (amount: string) =>
      (await createRefund(next.shop, next.order.reference, { amount })).body;
    expect(await statusGiven(await more('1'), next.bob)).toBe('PENDING');
    expect(await statusGiven(await more('1'), next.bob)).toBe('AWAITING_APPROVAL');
  });

  it('does not verify a refund transaction that pays the wrong amount; the right one then succeeds', async () => {
    const { shop, key, payer, order } = await paidOrder('10');
    const refund = (await createRefund(shop, order.reference, { amount: '5', to: payer.address })).body;
    const wrong = await d.transfer(key, payer.address, 4_000_000n, refund.tag);
    for (let i = 0; i < 3; i++) await h.server.jobs.runNow('verify-refunds');
    expect((await refundOf(shop, order.reference, refund.id)).status).toBe('PENDING');
    const rejected = (await h.auditOf(shop, order.reference)).filter(
      (e) => e.type === 'refund.transaction_rejected',
    );
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.data).toMatchObject({
      refundId: refund.id,
      txId: d.network === 'SOLANA' ? wrong : wrong.toLowerCase(),
      reason: "sends 4.000000, not the refund's 5.000000",
    });
    await d.sendRefund(h, await refundOf(shop, order.reference, refund.id), key);
    const done = await settleRefund(shop, order.reference, refund.id, 'SUCCEEDED');
    expect(done.txId).not.toBe(wrong);
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefunded).toBe('5.000000');
  });

  it('FAILS a refund never sent after REFUND_DEADLINE_SECONDS; it holds what it held through its late window', async () => {
    const { shop, payer, order } = await paidOrder('6', '6', short);
    const api = short.server.api;
    const sent = await api<Refund>('POST', `/orders/${order.reference}/refunds`, {
      token: shop.token,
      body: { to: payer.address },
    });
    expect(sent.status, sent.text).toBe(201);
    const waiting = await api<Refund>('POST', `/orders/${order.reference}/refunds`, {
      token: shop.token,
      body: {},
    });
    expectErrorBody(waiting, 400, 'VALIDATION_ERROR'); // all 6 are held by the first
    // A refund never given an address, on another order, fails the same way (checked below).
    const unsent = await paidOrder('4', '4', short);
    const unaddressedRefund = await api<Refund>('POST', `/orders/${unsent.order.reference}/refunds`, {
      token: unsent.shop.token,
      body: {},
    });
    expect(unaddressedRefund.body).toMatchObject({ amount: '4.000000', status: 'AWAITING_ADDRESS' });
    await sleep(DEADLINE_SECONDS * 1000 + 300);
    const failed = await settleRefund(shop, order.reference, sent.body.id, 'FAILED', short);
    expect(failed.failureReason).toMatch(/no verified refund transfer within 2 s/);
    await short.deliverWebhooks();
    const hook = short.webhooksFor(shop, order.reference).find((w) => w.json.type === 'refund.failed')!;
    const failedRefund = (hook.json.data as unknown as { refund: Refund & { lateUntil: string } }).refund;
    expect(failedRefund).toMatchObject({ status: 'FAILED', late: false });
    // Its transaction may still land (test/integration/late-refunds.test.ts): it holds the 6 until then.
    expect(Date.parse(failedRefund.lateUntil) - Date.parse(failed.deadlineAt)).toBeGreaterThanOrEqual(
      short.server.config.LATE_PAYMENT_WINDOW_SECONDS * 1000,
    );
    expect(await short.getOrder(shop, order.reference)).toMatchObject({
      amountRefunded: '0.000000',
      amountRefundable: '0.000000',
    });
    const again = await api<Refund>('POST', `/orders/${order.reference}/refunds`, {
      token: shop.token,
      body: {},
    });
    expectErrorBody(again, 400, 'VALIDATION_ERROR');
    expect(again.text).toContain('6.000000 by failed refunds whose transfer may still land, until');

    // The refund never given an address holds nothing once FAILED: no transaction of it can exist.
    const unaddressed = await settleRefund(
      unsent.shop,
      unsent.order.reference,
      unaddressedRefund.body.id,
      'FAILED',
      short,
    );
    expect(unaddressed.failureReason).toMatch(/gave no refund address/);
    expect(unaddressed).toMatchObject({ lateUntil: null });
    expect(((await short.getOrder(unsent.shop, unsent.order.reference)) as Order).amountRefundable).toBe(
      '4.000000',
    );
    const next = await api<Refund>('POST', `/orders/${unsent.order.reference}/refunds`, {
      token: unsent.shop.token,
      body: {},
    });
    expect(next.status, next.text).toBe(201);
    expect(next.body).toMatchObject({ amount: '4.000000', status: 'AWAITING_ADDRESS' });
  });

  it('concurrent refund requests never exceed what is refundable; Idempotency-Key replays', async () => {
    const { shop, payer, order } = await paidOrder('10');
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        createRefund(shop, order.reference, { amount: '3', to: payer.address }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 201)) expectErrorBody(r, 400, 'VALIDATION_ERROR');
    expect(await listRefunds(shop, order.reference)).toHaveLength(3);

    const headers = { 'idempotency-key': `refund-${order.reference}` };
    const [a, b] = await Promise.all([
      createRefund(shop, order.reference, { amount: '0.5', to: payer.address }, headers),
      createRefund(shop, order.reference, { amount: '0.5', to: payer.address }, headers),
    ]);
    const ok = [a, b].filter((r) => r.status === 201);
    expect(ok.length, `${a.text} ${b.text}`).toBeGreaterThanOrEqual(1);
    const replay = await createRefund(shop, order.reference, { amount: '0.5', to: payer.address }, headers);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(ok[0]!.body.id);
    expect(await listRefunds(shop, order.reference)).toHaveLength(4);
    expectErrorBody(
      await createRefund(shop, order.reference, { amount: '0.4', to: payer.address }, headers),
      409,
      'CONFLICT',
    );
  });

  it('through the SDK: ledger, refunds.create/list, and sendRefund signing with the merchant key', async () => {
    const { shop, key, payer, order } = await paidOrder('9');
    const client = createClient({ baseUrl: h.server.url, token: shop.token });
    const ledger = await client.orders.payments(order.reference);
    expect(ledger.items.map((p) => [p.amount, p.from, p.matchedBy])).toEqual([
      ['9.000000', payer.address, 'tag'],
    ]);
    const refund = await client.orders.refunds.create(order.reference, { amount: '4', to: payer.address });
    expect(refund).toMatchObject({ status: 'PENDING', amount: '4.000000' });
    // A wrong key is refused before anything is signed.
    const stranger = await d.newShop(h);
    await expect(
      sendRefund({
        client,
        reference: order.reference,
        refundId: refund.id,
        ...walletOf(d, stranger.key),
      }),
    ).rejects.toThrow(/not the order's receiving wallet/);
    const before = await d.balance(payer.address);
    const { txId } = await sendRefund({
      client,
      reference: order.reference,
      refundId: refund.id,
      ...walletOf(d, key),
    });
    if (d.network === 'POLYGON') await chains.polygon.mine(REFUND_POLYGON_CONFIRMATIONS);
    expect(await d.balance(payer.address)).toBe(before + 4_000_000n);
    const done = await settleRefund(shop, order.reference, refund.id, 'SUCCEEDED');
    expect(done.txId).toBe(d.network === 'SOLANA' ? txId : txId.toLowerCase());
    const listed = await client.orders.refunds.list(order.reference);
    expect(listed.items.map((r) => r.status)).toEqual(['SUCCEEDED']);
    expect((await client.orders.get(order.reference)).amountRefunded).toBe('4.000000');
  });

  it('pays an order short by no more than the tolerance; audit and amountReceived tell the truth', async () => {
    const { shop } = await d.newShop(h);
    const payer = await d.newPayer();
    const patched = await h.server.api('PATCH', '/users/me', {
      token: shop.token,
      body: { underpayment_tolerance_bps: 100 },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.underpayment_tolerance_bps).toBe(100);
    const within = await h.createOrder(shop, { amount: '10' });
    await d.transfer(payer.key, shop.wallet, 9_900_000n, within.reference);
    const paid = await h.settle(shop, within.reference, 'PAID');
    expect(paid.amountReceived).toBe('9.900000');
    const change = (await h.auditOf(shop, within.reference)).find(
      (e) => e.type === 'status.changed' && e.data.to === 'PAID',
    )!;
    expect(change.data).toMatchObject({
      reason: 'paid within the underpayment tolerance',
      shortBy: '0.100000',
      toleranceBps: 100,
      amountReceived: '9.900000',
    });

    const beyond = await h.createOrder(shop, { amount: '10' });
    await d.transfer(payer.key, shop.wallet, 9_899_999n, beyond.reference);
    expect((await h.settle(shop, beyond.reference, 'UNDERPAID')).amountReceived).toBe('9.899999');
    expectErrorBody(
      await h.server.api('PATCH', '/users/me', {
        token: shop.token,
        body: { underpayment_tolerance_bps: 5000 },
      }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('POLYGON refunds sent from the EIP-681 link', () => {
  it('match an untagged transfer of exactly the refund amount from the wallet to the address', async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, polygonDriver, '20');
    const refund = (
      await h.server.api<Refund>('POST', `/orders/${order.reference}/refunds`, {
        token: shop.token,
        body: { amount: '7.25', to: payer.address },
      })
    ).body;
    const link =
      /^ethereum:(0x[0-9a-fA-F]{40})@137\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(
        refund.payUrl!,
      );
    expect(link, refund.payUrl!).not.toBeNull();
    // A transfer of another amount on the same path first (a slip of the merchant): never the
    // refund; recorded in the audit so the merchant sees why it did not count.
    await polygonDriver.transfer(merchant, payer.address, 1_000_000n);
    const sent = await polygonDriver.transfer(merchant, link![2]!, BigInt(link![3]!));
    const deadline = Date.now() + 20_000;
    let current: Refund;
    do {
      await h.server.jobs.runNow('verify-refunds');
      const list = await h.server.api<{ items: Refund[] }>('GET', `/orders/${order.reference}/refunds`, {
        token: shop.token,
      });
      current = list.body.items[0]!;
      if (Date.now() > deadline) throw new Error(`refund is ${current.status}`);
    } while (current.status !== 'SUCCEEDED');
    expect(current.txId).toBe(sent.toLowerCase());
    const audit = await h.auditOf(shop, order.reference);
    expect(audit.find((e) => e.type === 'refund.succeeded')!.data.matchedBy).toBe('amount');
    expect(audit.filter((e) => e.type === 'refund.transaction_rejected').map((e) => e.data.reason)).toEqual([
      "sends 1.000000, not the refund's 7.250000",
    ]);
  });
});

describe('the refund address form', () => {
  it('is rate-limited per client address (429 with Retry-After)', async () => {
    // Counts live in the database, shared by every server of this file: a client address of its own.
    const server = await startTestServer({ REFUND_ADDRESS_RATE_LIMIT_MAX: '2', TRUST_PROXY: '1' });
    const headers = { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
    try {
      const url = `/pay/refunds/rf_${'ab'.repeat(16)}/address`;
      for (let i = 0; i < 2; i++)
        expectErrorBody(await server.api('POST', url, { body: { address: 'x' }, headers }), 404, 'NOT_FOUND');
      const limited = await server.api('POST', url, { body: { address: 'x' }, headers });
      expectErrorBody(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  });
});
