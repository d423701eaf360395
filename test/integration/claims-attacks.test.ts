import { randomBytes } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import { getAddress, toHex, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimProofMessage } from '../../contract';
import { decodeBase58, encodeBase58 } from '../../server/lib/base58';
import { parseUnits } from '../../contract/decimal';
import { MAX_OPEN_UNSIGNED_CLAIMS } from '../../server/orders/submit-payment-claim';
import { closeSupersededOrders } from '../../server/orders/close-superseded-orders';
import {
  startLocalEvm,
  type LocalEvm,
  type LocalWallet,
  randomEvmAddress,
} from '../../sandbox/chains/evm/local-evm';
import {
  startPaymentHarness,
  type PaidOrder,
  type PaymentHarness,
  usePaymentStack,
} from '../support/payment-harness';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { signSolanaMessage } from '../../sandbox/chains/solana/sign-message';
import { expectErrorBody } from '../support/test-server';

/**
 * Money safety against other people (DESIGN.md): each test plays someone who tries to have a
 * transfer credited to the wrong order, on the local chains, through the service's public and
 * merchant routes. Jobs are driven by hand.
 */

const POLYGON_CONFIRMATIONS = 2;

let solana: LocalSolana;
let evm: LocalEvm;
let usdtMint: PublicKey;
let usdtPolygon: Address;
let h: PaymentHarness;

usePaymentStack(
  async () => {
    [solana, evm] = await Promise.all([startLocalSolana(), startLocalEvm({ chainId: 137 })]);
    usdtMint = await solana.createMint();
    usdtPolygon = getAddress(await evm.deployToken());
    h = await startPaymentHarness({
      SOLANA_RPC_URL: solana.url,
      USDT_MINT_SOLANA: usdtMint.toBase58(),
      SOLANA_COMMITMENT: 'confirmed',
      POLYGON_RPC_URL: evm.url,
      POLYGON_CHAIN_ID: '137',
      POLYGON_CONFIRMATIONS: String(POLYGON_CONFIRMATIONS),
      USDT_CONTRACT_POLYGON: usdtPolygon,
      PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: '3',
    });
  },
  () => [h, solana, evm],
);

const units = (amount: string) => parseUnits(amount, 6);
type Shop = Awaited<ReturnType<PaymentHarness['newShop']>>;
type Unattributed = {
  txId: string;
  network: string;
  token: string;
  to: string;
  from: string | null;
  amount: string;
};

async function unattributed(
  shop: Shop,
  query = '',
): Promise<{ items: Unattributed[]; nextCursor: string | null }> {
  const res = await h.server.api('GET', `/users/me/unattributed-payments${query}`, { token: shop.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
/** `payer` (a new one unless given) sends `amount` USDT to the shop's wallet, naming `reference` if given. */
async function sendUsdt(
  shop: { wallet: string },
  amount: string,
  opts: { payer?: Keypair; reference?: string } = {},
) {
  const payer = opts.payer ?? (await solana.newPayer({ mint: usdtMint }));
  const txId = await solana.transfer({
    payer,
    recipientOwner: new PublicKey(shop.wallet),
    mint: usdtMint,
    amountUnits: units(amount),
    ...(opts.reference ? { reference: new PublicKey(opts.reference) } : {}),
  });
  return { payer, txId };
}
const audit = async (shop: Shop, reference: string) => await h.auditOf(shop, reference);
/** Runs the jobs until the transfer is kept unattributed or credited to one of the orders. */
const settled = (shop: Shop, txId: string, orders: { reference: string }[]) =>
  h.runJobs(
    async () =>
      (await unattributed(shop)).items.some((p) => p.txId === txId) ||
      (await Promise.all(orders.map((o) => h.ledgerOf(shop, o.reference)))).some((l) =>
        l.some((p) => p.txId === txId),
      ),
  );
/** Runs the jobs until the order's audit has an entry of `type`. */
const until = (shop: Shop, reference: string, type: string) =>
  h.runJobs(async () => (await audit(shop, reference)).some((e) => e.type === type));

describe('Solana: a transfer that names no order and is not its exact amount', () => {
  const newShop = () => h.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
  const order = (shop: Shop, amount: string) => h.createOrder(shop, { amount });
  /** A withdrawal from an exchange: the exchange's hot wallet sends, short by its fee, no reference. */
  async function withdrawal(shop: Shop, amount: string, from?: Keypair) {
    const { payer: sender, txId } = await sendUsdt(shop, amount, { payer: from });
    return { txId, sender };
  }

  it("a stranger's report of it credits nothing; nor does his own signature; the merchant attributes it to the victim's order", async () => {
    const shop = await newShop();
    const victims = await order(shop, '20');
    const strangers = await order(shop, '5');
    const { txId, sender } = await withdrawal(shop, '19.2');

    // The stranger reports it for his cheap order first, on the public route.
    expect((await h.submitTx(strangers.reference, txId)).status).toBe(202);
    await until(shop, strangers.reference, 'payment.claimed');
    const after = await h.getOrder(shop, strangers.reference);
    expect(after).toMatchObject({ status: 'PENDING', amountReceived: '0.000000', txId: null });
    expect(h.webhookTypes(shop, strangers.reference)).toEqual([
      'order.created',
      'order.confirming',
      'order.payment_claimed',
    ]);
    const claimed = h.webhooksFor(shop, strangers.reference).at(-1)!.json.data as unknown as {
      claim: Record<string, unknown>;
    };
    expect(claimed.claim).toMatchObject({ txId, amount: '19.200000', from: sender.publicKey.toBase58() });
    expect(await h.ledgerOf(shop, strangers.reference)).toEqual([]);

    // A signature by his own key proves nothing: he did not send it.
    const stranger = Keypair.generate();
    const forged = signSolanaMessage(stranger, claimProofMessage(strangers.reference, txId));
    expect((await h.submitTx(strangers.reference, txId, forged)).status).toBe(202);
    await until(shop, strangers.reference, 'payment.rejected');
    const rejected = (await audit(shop, strangers.reference)).find((e) => e.type === 'payment.rejected');
    expect(rejected?.data.reason).toBe('the signature is not by a wallet that sent this transfer');
    await h.expectOrder(shop, strangers.reference, 'PENDING', '0.000000');

    // Nothing is ignored: the merchant sees the transfer, and attributes it.
    expect((await unattributed(shop)).items).toEqual([
      expect.objectContaining({
        txId,
        network: 'SOLANA',
        token: 'USDT',
        to: shop.wallet,
        from: sender.publicKey.toBase58(),
        amount: '19.200000',
      }),
    ]);
    expect((await h.attribute(shop, victims.reference, txId)).status).toBe(202);
    const paid = await h.settle(shop, victims.reference, 'UNDERPAID');
    expect(paid).toMatchObject({ amountReceived: '19.200000', txId });
    expect(await h.ledgerOf(shop, victims.reference)).toEqual([
      expect.objectContaining({
        txId,
        amount: '19.200000',
        matchedBy: 'claim',
        from: sender.publicKey.toBase58(),
      }),
    ]);
    expect((await unattributed(shop)).items).toEqual([]);
    // Credited, it is nobody else's.
    expectErrorBody(await h.submitTx(strangers.reference, txId, forged), 409, 'CONFLICT');
    expectErrorBody(await h.attribute(shop, strangers.reference, txId), 409, 'CONFLICT');
  });

  it("the sender's signature credits it at once, even after a stranger reported it first", async () => {
    const shop = await newShop();
    const mine = await order(shop, '20');
    const strangers = await order(shop, '10');
    const payer = await solana.newPayer({ mint: usdtMint });
    const { txId } = await withdrawal(shop, '19.95', payer);
    expect((await h.submitTx(strangers.reference, txId)).status).toBe(202);

    const signature = signSolanaMessage(payer, claimProofMessage(mine.reference, txId));
    expect((await h.submitTx(mine.reference, txId, signature)).status).toBe(202);
    const paid = await h.settle(shop, mine.reference, 'UNDERPAID');
    expect(paid).toMatchObject({ amountReceived: '19.950000', txId });
    expect(await h.ledgerOf(shop, mine.reference)).toEqual([
      expect.objectContaining({ txId, matchedBy: 'claim', from: payer.publicKey.toBase58() }),
    ]);
    await h.runJobs(async () => (await h.getOrder(shop, strangers.reference)).status === 'PENDING');
    expect((await h.getOrder(shop, strangers.reference)).amountReceived).toBe('0.000000');
    // The signature names the order: it proves nothing for another one.
    const other = await order(shop, '30');
    expectErrorBody(await h.submitTx(other.reference, txId, signature), 409, 'CONFLICT');
  });

  it('a transfer to an idle wallet is kept unattributed (newest first, paged) until the merchant attributes it', async () => {
    const shop = await newShop();
    const first = await withdrawal(shop, '3');
    const second = await withdrawal(shop, '4.5');
    await h.runJobs(async () => (await unattributed(shop)).items.length === 2);
    const page1 = await unattributed(shop, '?per_page=1');
    expect(page1.items.map((p) => p.txId)).toEqual([second.txId]);
    const page2 = await unattributed(shop, `?per_page=1&cursor=${page1.nextCursor}`);
    expect(page2).toMatchObject({ items: [expect.objectContaining({ txId: first.txId })], nextCursor: null });
    // Another merchant sees none of it.
    expect((await unattributed(await newShop())).items).toEqual([]);

    // Not the amount of the order it is reported for: the payer's word is not enough, the merchant's is.
    const later = await order(shop, '3.5');
    expect((await h.submitTx(later.reference, first.txId)).status).toBe(202);
    await until(shop, later.reference, 'payment.claimed');
    expect((await unattributed(shop)).items).toHaveLength(2);
    expect((await h.attribute(shop, later.reference, first.txId)).status).toBe(202);
    expect(await h.settle(shop, later.reference, 'UNDERPAID')).toMatchObject({ amountReceived: '3.000000' });
    expect((await unattributed(shop)).items.map((p) => p.txId)).toEqual([second.txId]);
  });

  /** One transaction paying `toA` to shop A's wallet (naming `reference` if given) and `toB` to shop B's. */
  const batchPayout = async (a: Shop, b: Shop, opts: { reference?: PublicKey; toA: string; toB: string }) =>
    solana.transfer({
      payer: await solana.newPayer({ mint: usdtMint }),
      recipientOwner: new PublicKey(a.wallet),
      mint: usdtMint,
      amountUnits: units(opts.toA),
      ...(opts.reference ? { reference: opts.reference } : {}),
      alsoTo: [{ recipientOwner: new PublicKey(b.wallet), amountUnits: units(opts.toB) }],
    });

  it("a batch payout to two shops: the transfer that pays one shop's order leaves the other's on its own list", async () => {
    const [a, b] = [await newShop(), await newShop()];
    const payout = (opts: { reference?: PublicKey; toA: string; toB: string }) => batchPayout(a, b, opts);
    const listed = async (shop: Shop) => (await unattributed(shop)).items.map((p) => [p.txId, p.amount]);

    // Neither transfer pays an order: each shop sees its own; A's attribution takes only A's.
    const plain = await payout({ toA: '3.3', toB: '4.4' });
    await h.runJobs(async () => (await listed(a)).length === 1 && (await listed(b)).length === 1);
    expect(await listed(b)).toEqual([[plain, '4.400000']]);
    const aOrder = await order(a, '3.3');
    expect((await h.attribute(a, aOrder.reference, plain)).status).toBe(202);
    await h.settle(a, aOrder.reference, 'PAID');
    expect(await listed(a)).toEqual([]);
    expect(await listed(b)).toEqual([[plain, '4.400000']]);
    // One transaction pays one order: B cannot attribute its part of it (it stays listed).
    const bOrder = await order(b, '4.4');
    expectErrorBody(await h.attribute(b, bOrder.reference, plain), 409, 'CONFLICT');
    expect(await listed(b)).toEqual([[plain, '4.400000']]);

    // The transfer to A names A's order and pays it; B's, in the same transaction, is still B's to see.
    const named = await order(a, '5');
    const tagged = await payout({ reference: new PublicKey(named.reference), toA: '5', toB: '6.6' });
    await h.runJobs(
      async () =>
        (await h.getOrder(a, named.reference)).status === 'PAID' &&
        (await listed(b)).some(([txId]) => txId === tagged),
    );
    expect(await listed(b)).toEqual([
      [tagged, '6.600000'],
      [plain, '4.400000'],
    ]);
    expect(await listed(a)).toEqual([]);
  });

  it('a batch payout whose transfer to one shop names its order, and to another is an open order’s exact amount, pays the named order, whichever wallet is scanned first', async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = [await newShop(), await newShop()];
      const named = await order(a, '5');
      const exact = await order(b, '6.6');
      const txId = await batchPayout(a, b, {
        reference: new PublicKey(named.reference),
        toA: '5',
        toB: exact.amount,
      });
      await h.runJobs(
        async () =>
          (await h.getOrder(a, named.reference)).status === 'PAID' &&
          (await unattributed(b)).items.some((p) => p.txId === txId),
        { timeoutMs: 5_000 },
      );
      await h.expectOrder(b, exact.reference, 'PENDING', '0.000000');
    }
  });

  it("another merchant's order to a wallet it does not own is never credited: not by amount, tag or attribution", async () => {
    const owner = await newShop();
    const intruder = await h.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
    // Registering the owner's wallet is refused.
    expectErrorBody(
      await h.server.api('POST', '/users/me/wallets', {
        token: intruder.token,
        body: { network: 'SOLANA', public_address: owner.wallet },
      }),
      409,
      'CONFLICT',
    );
    // An order of the intruder's pointing at the owner's wallet, as duplicate registrations made
    // before one-owner wallets left them (the migration removed the wallet, not the order).
    const stale = await order(intruder, '7.77');
    await h.server.deps.db.sequelize.query(
      `UPDATE orders SET recipient = :wallet WHERE reference = :reference;
       UPDATE amount_reservations SET recipient = :wallet WHERE reference = :reference`,
      { replacements: { wallet: owner.wallet, reference: stale.reference } },
    );
    // The owner's customer pays exactly that amount, and another payment names the stale order.
    const exact = await withdrawal(owner, '7.77');
    const { txId: tagged } = await sendUsdt(owner, '1', { reference: stale.reference });
    await h.runJobs(async () => (await unattributed(owner)).items.length === 2);
    expect((await h.getOrder(intruder, stale.reference)).amountReceived).toBe('0.000000');
    expect((await h.attribute(intruder, stale.reference, exact.txId)).status).toBe(202);
    await until(intruder, stale.reference, 'payment.rejected');
    expect(
      (await audit(intruder, stale.reference)).find((e) => e.type === 'payment.rejected')?.data.reason,
    ).toMatch(/registered to another account/);
    expect(await h.getOrder(intruder, stale.reference)).toMatchObject({ amountReceived: '0.000000' });
    expect((await unattributed(owner)).items.map((p) => p.txId).sort()).toEqual([exact.txId, tagged].sort());
    expect((await unattributed(intruder)).items).toEqual([]);
  });
});

describe('Solana: made-up transaction ids', () => {
  let clockOffsetMs = 0;
  let flood: PaymentHarness;
  beforeAll(async () => {
    flood = await startPaymentHarness(
      {
        SOLANA_RPC_URL: solana.url,
        USDT_MINT_SOLANA: usdtMint.toBase58(),
        SOLANA_COMMITMENT: 'confirmed',
        PAYMENT_RECHECK_MS: '1000',
        PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: '600',
      },
      { clock: () => new Date(Date.now() + clockOffsetMs) },
    );
  });
  afterAll(() => flood?.stop());
  const madeUp = () => encodeBase58(randomBytes(64));

  it("cost a few reads each over their 10 minutes, and never hold back the payer's signed report or the merchant's", async () => {
    const shop = await flood.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
    const target = await flood.createOrder(shop, { amount: '50' });
    for (let i = 0; i < MAX_OPEN_UNSIGNED_CLAIMS; i++)
      expect((await flood.submitTx(target.reference, madeUp())).status).toBe(202);
    const refused = await flood.submitTx(target.reference, madeUp());
    expectErrorBody(refused, 429, 'RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    // The real payer's signed report, and the merchant's, still go through at once.
    const { payer, txId } = await sendUsdt(shop, '49.5');
    const signed = signSolanaMessage(payer, claimProofMessage(target.reference, txId));
    expect((await flood.submitTx(target.reference, txId, signed)).status).toBe(202);
    expect((await flood.attribute(shop, target.reference, madeUp())).status).toBe(202);
    await flood.runJobs(
      async () => (await flood.getOrder(shop, target.reference)).amountReceived === '49.500000',
    );

    // Ten minutes of checks, a second at a time: the made-up ids are read a few times each.
    solana.resetRpcCalls();
    for (clockOffsetMs = 0; clockOffsetMs <= 605_000; clockOffsetMs += 1000)
      await flood.server.jobs.runNow('verify-payments');
    const reads = solana.rpcCalls.getTransaction ?? 0;
    // Four made-up ids (three of the payer's, one of the merchant's): 11 reads each at most (at
    // 1 s, 2 s, 4 s ... 256 s, then just after the deadline), where a read a second made 600.
    expect(reads).toBeGreaterThanOrEqual(4 * 9);
    expect(reads).toBeLessThanOrEqual(4 * 11);
    const open = await flood.server.deps.db.models.PaymentClaim.count({ where: { status: 'PENDING' } });
    expect(open).toBe(0);
    // Their deadline passed: the order takes reports again.
    expect((await flood.submitTx(target.reference, madeUp())).status).toBe(202);
  });

  it("do not hold an order past its expiry (nor hold it again once expired); the merchant's report and a real late payment still count", async () => {
    const shop = await flood.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
    const order = await flood.createOrder(shop, { amount: '20', expiresInSeconds: 60 });
    const status = async () => (await flood.getOrder(shop, order.reference)).status;
    const expire = () => flood.server.jobs.runNow('expire-orders');

    // Before expiry a report shows the payer the order is being checked.
    expect((await flood.submitTx(order.reference, madeUp())).status).toBe(202);
    expect(await status()).toBe('CONFIRMING');
    // Past expiry, the made-up report alone does not keep the order (or a subscription's period) open.
    clockOffsetMs += 61_000;
    await expire();
    expect(await status()).toBe('EXPIRED');
    const changes = async () => flood.statusChanges(await flood.auditOf(shop, order.reference));
    expect(await changes()).toEqual(['PENDING->CONFIRMING', 'CONFIRMING->EXPIRED']);
    expect(
      await flood.server.deps.db.models.PaymentClaim.count({ where: { status: 'PENDING' } }),
    ).toBeGreaterThan(0);
    // Another one after expiry is checked but moves nothing: no order.confirming, no second order.expired.
    expect((await flood.submitTx(order.reference, madeUp())).status).toBe(202);
    await expire();
    expect(await status()).toBe('EXPIRED');
    expect(await changes()).toHaveLength(2);

    // The merchant's report holds it while it is checked, as a signed report would.
    expect((await flood.attribute(shop, order.reference, madeUp())).status).toBe(202);
    await expire();
    expect(await status()).toBe('CONFIRMING');

    // A real transfer naming the order, reported without proof after expiry, is credited: paid late
    // (by the chain's clock, moved on as the service's was).
    solana.advanceClock(Math.ceil(clockOffsetMs / 1000));
    const { txId } = await sendUsdt(shop, '20', { reference: order.reference });
    expect((await flood.submitTx(order.reference, txId)).status).toBe(202);
    await flood.runJobs(async () => (await status()) === 'PAID');
    expect(await flood.getOrder(shop, order.reference)).toMatchObject({
      paidLate: true,
      amountReceived: '20.000000',
    });
  });

  it('a report of the same transaction with proof, after one without, holds the order past its expiry', async () => {
    const shop = await flood.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
    const order = await flood.createOrder(shop, { amount: '20', expiresInSeconds: 60 });
    const txId = madeUp();
    expect((await flood.submitTx(order.reference, txId)).status).toBe(202);
    // Its sender signs it (the checkout asks the wallet after a first report without proof).
    const sender = Keypair.generate();
    const signed = signSolanaMessage(sender, claimProofMessage(order.reference, txId));
    expect((await flood.submitTx(order.reference, txId, signed)).status).toBe(202);
    const claims = await flood.server.deps.db.models.PaymentClaim.findAll({ where: { txId } });
    expect(claims.map((c) => [c.status, c.source, c.proofSignature !== null])).toEqual([
      ['PENDING', 'payer', true],
    ]);
    clockOffsetMs += 61_000;
    await flood.server.jobs.runNow('expire-orders');
    expect((await flood.getOrder(shop, order.reference)).status).toBe('CONFIRMING');
  });

  it('a superseded order that only reports without proof keep CONFIRMING is closed as a PENDING one is', async () => {
    const shop = await flood.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
    const order = await flood.createOrder(shop, { amount: '20', expiresInSeconds: 3600 });
    expect((await flood.submitTx(order.reference, madeUp())).status).toBe(202);
    expect((await flood.getOrder(shop, order.reference)).status).toBe('CONFIRMING');
    const { sequelize, models } = flood.server.deps.db;
    const row = (await models.Order.findOne({ where: { reference: order.reference } }))!;
    await sequelize.transaction((t) =>
      closeSupersededOrders(flood.server.deps, t, [row.id], flood.server.deps.clock()),
    );
    await flood.server.jobs.runNow('expire-orders');
    expect((await flood.getOrder(shop, order.reference)).status).toBe('EXPIRED');
  });
});

describe('Polygon: a plain transfer (EIP-681, no tag) short of the amount', () => {
  const newShop = () => h.newShop('POLYGON', randomEvmAddress());
  const order = (shop: Shop, amount: string) => h.createOrder(shop, { amount }) as Promise<PaidOrder>;
  async function payer(): Promise<LocalWallet> {
    return evm.newWallet({ token: usdtPolygon, units: 1_000_000_000n });
  }
  const confirm = () => evm.mine(POLYGON_CONFIRMATIONS);

  it("a stranger's report credits nothing; the sender's EIP-191 signature credits the order it names", async () => {
    const shop = await newShop();
    const mine = await order(shop, '20');
    const strangers = await order(shop, '5');
    const from = await payer();
    const txId = await evm.transfer({
      from,
      token: usdtPolygon,
      to: shop.wallet as Address,
      units: units('19.2'),
    });
    // Read off the mempool or the chain by anyone, before it is even final.
    expect((await h.submitTx(strangers.reference, txId)).status).toBe(202);
    await confirm();
    await until(shop, strangers.reference, 'payment.claimed');
    await h.expectOrder(shop, strangers.reference, 'PENDING', '0.000000');

    // A signature by another key, or of another message, is refused.
    const stranger = await payer();
    const message = claimProofMessage(mine.reference, txId);
    for (const signature of [
      await stranger.signMessage({ message }),
      await from.signMessage({ message: claimProofMessage(strangers.reference, txId) }),
    ]) {
      const before = (await audit(shop, mine.reference)).filter((e) => e.type === 'payment.rejected').length;
      expect((await h.submitTx(mine.reference, txId, signature)).status).toBe(202);
      await h.runJobs(
        async () =>
          (await audit(shop, mine.reference)).filter((e) => e.type === 'payment.rejected').length > before,
      );
    }
    expect(await h.getOrder(shop, mine.reference)).toMatchObject({ amountReceived: '0.000000' });

    // The sender signs: credited, by claim, from its address. The txId is signed as it is sent.
    const sentAs = txId.toUpperCase().replace('0X', '0x');
    const proof = await from.signMessage({ message: claimProofMessage(mine.reference, sentAs) });
    expect((await h.submitTx(mine.reference, sentAs, proof)).status).toBe(202);
    const paid = await h.settle(shop, mine.reference, 'UNDERPAID');
    expect(paid).toMatchObject({ amountReceived: '19.200000', txId });
    expect(await h.ledgerOf(shop, mine.reference)).toEqual([
      expect.objectContaining({ txId, matchedBy: 'claim', from: from.address }),
    ]);
    expect((await unattributed(shop)).items).toEqual([]);
  });

  it('a transfer to a wallet with no open order is kept unattributed, with its 6-decimal amount', async () => {
    const shop = await newShop();
    const from = await payer();
    const txId = await evm.transfer({
      from,
      token: usdtPolygon,
      to: shop.wallet as Address,
      units: 1_234_567n,
    });
    await confirm();
    await h.runJobs(async () => (await unattributed(shop)).items.length === 1);
    expect((await unattributed(shop)).items[0]).toMatchObject({
      txId,
      network: 'POLYGON',
      token: 'USDT',
      to: shop.wallet,
      from: from.address,
      amount: '1.234567',
    });
  });
});

/**
 * An untagged transfer is credited by its amount only when that amount is one order's: its full
 * amount or what is still due on it. What is due after a partial payment is not reserved like a full
 * amount can be, so it may also be another order's amount or remainder: then the transfer is
 * nobody's by its amount and stays unattributed, for the merchant to attribute or its sender to
 * report with proof.
 */
describe('Polygon: an untagged transfer of what is still due on a partly paid order', () => {
  const newShop = () => h.newShop('POLYGON', randomEvmAddress());
  const order = (shop: Shop, amount: string) => h.createOrder(shop, { amount }) as Promise<PaidOrder>;
  const confirm = () => evm.mine(POLYGON_CONFIRMATIONS);
  /** `amount` to the shop's wallet from `from`: tagged with `tag` (an order's reference), else plain (EIP-681). */
  const pay = (shop: Shop, from: LocalWallet, amount: string, tag?: string) =>
    evm.transfer({
      from,
      token: usdtPolygon,
      to: shop.wallet as Address,
      units: units(amount),
      ...(tag ? { dataSuffix: toHex(decodeBase58(tag)!) } : {}),
    });
  /** Partly pays the order by a tagged transfer, settled. */
  async function underpay(shop: Shop, from: LocalWallet, reference: string, amount: string) {
    await pay(shop, from, amount, reference);
    await confirm();
    return h.settle(shop, reference, 'UNDERPAID');
  }

  it("is nobody's evidence when it is also another order's full amount; the sender's signed report credits it", async () => {
    const shop = await newShop();
    const other = await order(shop, '6');
    const partly = await order(shop, '10');
    const from = await evm.newWallet({ token: usdtPolygon, units: 1_000_000_000n });
    expect(await underpay(shop, from, partly.reference, '4')).toMatchObject({ amountReceived: '4.000000' });
    // The partly paid order's link asks for the 6 due, untagged: the other order's amount too.
    expect((await h.getOrder(shop, partly.reference)).payUrl).toContain('uint256=6000000');
    expect(other.amount).toBe('6.000000');

    const txId = await pay(shop, from, '6');
    await confirm();
    await settled(shop, txId, [other, partly]);
    await h.expectOrder(shop, other.reference, 'PENDING', '0.000000');
    await h.expectOrder(shop, partly.reference, 'UNDERPAID', '4.000000');
    expect((await unattributed(shop)).items).toEqual([
      expect.objectContaining({ txId, amount: '6.000000', from: from.address }),
    ]);

    // Its sender reports it for the order it paid, signed: credited, by claim.
    const proof = await from.signMessage({ message: claimProofMessage(partly.reference, txId) });
    expect((await h.submitTx(partly.reference, txId, proof)).status).toBe(202);
    expect(await h.settle(shop, partly.reference, 'PAID')).toMatchObject({
      amountReceived: '10.000000',
      txId,
    });
    expect((await h.ledgerOf(shop, partly.reference)).at(-1)).toMatchObject({ txId, matchedBy: 'claim' });
    expect((await unattributed(shop)).items).toEqual([]);
    expect((await h.getOrder(shop, other.reference)).status).toBe('PENDING');
  });

  it("is nobody's evidence when it is due on two orders: neither is credited until the merchant says whose it is", async () => {
    const shop = await newShop();
    const first = await order(shop, '10');
    const second = await order(shop, '10');
    expect(second.amount).toBe('10.000001');
    const from = await evm.newWallet({ token: usdtPolygon, units: 1_000_000_000n });
    await underpay(shop, from, first.reference, '4');
    await underpay(shop, from, second.reference, '4.000001'); // 6 due on each

    const txId = await pay(shop, from, '6');
    await confirm();
    await settled(shop, txId, [first, second]);
    for (const [o, received] of [
      [first, '4.000000'],
      [second, '4.000001'],
    ] as const)
      await h.expectOrder(shop, o.reference, 'UNDERPAID', received);
    expect((await unattributed(shop)).items.map((p) => p.txId)).toEqual([txId]);

    expect((await h.attribute(shop, second.reference, txId)).status).toBe(202);
    expect(await h.settle(shop, second.reference, 'PAID')).toMatchObject({ amountReceived: '10.000001' });
    expect((await h.ledgerOf(shop, second.reference)).at(-1)).toMatchObject({ txId, matchedBy: 'claim' });
    expect((await h.getOrder(shop, first.reference)).amountReceived).toBe('4.000000');
  });

  it("a new order's amount avoids what is due on a partly paid one, whose sole remainder then pays it by amount", async () => {
    const shop = await newShop();
    const partly = await order(shop, '10');
    const from = await evm.newWallet({ token: usdtPolygon, units: 1_000_000_000n });
    await underpay(shop, from, partly.reference, '4');
    const next = await order(shop, '6');
    expect(next.amount).toBe('6.000001'); // 6 is due on the partly paid order

    const txId = await pay(shop, from, '6');
    await confirm();
    expect(await h.settle(shop, partly.reference, 'PAID')).toMatchObject({
      amountReceived: '10.000000',
      txId,
    });
    expect((await h.ledgerOf(shop, partly.reference)).at(-1)).toMatchObject({ txId, matchedBy: 'amount' });
    await h.expectOrder(shop, next.reference, 'PENDING', '0.000000');
    // Paid, nothing is due on it any more: its remainder is free again.
    expect((await order(shop, '6')).amount).toBe('6.000000');
  });

  it("of an order that shares another's amount (no free amount was left), pays neither by amount: its payer's signed report credits it", async () => {
    const shop = await newShop();
    const reserved = await order(shop, '7');
    // As POST /orders makes it when the 1,000 amounts around its price are taken: its price kept,
    // `amountUnique: false`, nothing reserved (test/integration/unique-amounts.test.ts makes them).
    const sharing = await order(shop, '7');
    await h.server.deps.db.sequelize.query(
      `UPDATE orders SET amount_units = 7000000, amount_unique = false WHERE reference = :reference;
       DELETE FROM amount_reservations WHERE reference = :reference`,
      { replacements: { reference: sharing.reference } },
    );
    expect(await h.getOrder(shop, sharing.reference)).toMatchObject({
      amount: '7.000000',
      amountUnique: false,
    });
    expect((await h.getOrder(shop, sharing.reference)).payUrl).toContain('uint256=7000000');

    // Its payer pays what its link asks, untagged: the reserved order's amount too.
    const from = await evm.newWallet({ token: usdtPolygon, units: 1_000_000_000n });
    const txId = await pay(shop, from, '7');
    await confirm();
    await settled(shop, txId, [reserved, sharing]);
    await h.expectOrder(shop, reserved.reference, 'PENDING', '0.000000');
    expect((await unattributed(shop)).items.map((p) => p.txId)).toEqual([txId]);

    const proof = await from.signMessage({ message: claimProofMessage(sharing.reference, txId) });
    expect((await h.submitTx(sharing.reference, txId, proof)).status).toBe(202);
    expect(await h.settle(shop, sharing.reference, 'PAID')).toMatchObject({ amountReceived: '7.000000' });
    expect((await h.getOrder(shop, reserved.reference)).status).toBe('PENDING');
  });
});

describe('Solana: an untagged transfer of what is still due on two partly paid orders', () => {
  it("credits neither: it stays unattributed until its sender's signed report names one", async () => {
    const shop = await h.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
    const first = await h.createOrder(shop, { amount: '10' });
    const second = await h.createOrder(shop, { amount: '10' });
    expect(second.amount).toBe('10.000001');
    const payer = await solana.newPayer({ mint: usdtMint });
    const send = (amount: string, reference?: string) =>
      solana.transfer({
        payer,
        recipientOwner: new PublicKey(shop.wallet),
        mint: usdtMint,
        amountUnits: units(amount),
        ...(reference ? { reference: new PublicKey(reference) } : {}),
      });
    await send('4', first.reference);
    await send('4.000001', second.reference); // 6 due on each
    await h.settle(shop, first.reference, 'UNDERPAID');
    await h.settle(shop, second.reference, 'UNDERPAID');

    // A wallet that drops the reference pays what the link asks.
    const txId = await send('6');
    await settled(shop, txId, [first, second]);
    await h.expectOrder(shop, first.reference, 'UNDERPAID', '4.000000');
    await h.expectOrder(shop, second.reference, 'UNDERPAID', '4.000001');
    expect((await unattributed(shop)).items.map((p) => p.txId)).toEqual([txId]);

    // Its sender proves it paid the first one: credited there, by claim.
    const proof = signSolanaMessage(payer, claimProofMessage(first.reference, txId));
    expect((await h.submitTx(first.reference, txId, proof)).status).toBe(202);
    expect(await h.settle(shop, first.reference, 'PAID')).toMatchObject({
      amountReceived: '10.000000',
      txId,
    });
    expect((await h.ledgerOf(shop, first.reference)).at(-1)).toMatchObject({ txId, matchedBy: 'claim' });
    expect((await h.getOrder(shop, second.reference)).amountReceived).toBe('4.000001');
  });
});
