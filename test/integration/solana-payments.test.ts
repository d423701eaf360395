import { randomBytes } from 'node:crypto';
import { fetchTransaction, findReference, parseURL, validateTransfer } from '@solana/pay';
import type { TransactionRequestURL, TransferRequestURL } from '@solana/pay';
import {
  TOKEN_PROGRAM_ID,
  decodeTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../server/lib/base58';
import { parseUnits } from '../../contract/decimal';
import { scanPayments } from '../../server/payments/scan-payments';
import { freePort } from '../support/free-port';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { expectErrorBody, newMerchant, startTestServer } from '../support/test-server';
import type { ApiResponse, TestServer } from '../support/test-server';
import { sleep, startPaymentHarness, usePaymentStack } from '../support/payment-harness';
import type { AuditEntry, PaidOrder, PaymentHarness } from '../support/payment-harness';

/**
 * Payments on the local Solana chain (litesvm behind JSON-RPC), end to end: the service reaches the
 * chain only through SOLANA_RPC_URL; background jobs are off and driven one batch at a time, so
 * every test decides exactly when the verifier, the scanner and the webhook sender run.
 */

type TokenName = 'USDT' | 'USDC';
const NOT_FOUND_TIMEOUT_SECONDS = 2;

let chain: LocalSolana;
let h: PaymentHarness;
let server: TestServer;
const mints = {} as Record<TokenName, PublicKey>;

usePaymentStack(
  async () => {
    chain = await startLocalSolana();
    mints.USDT = await chain.createMint();
    mints.USDC = await chain.createMint();
    h = await startPaymentHarness({
      // An endpoint list whose first endpoint is down: every call fails over to the local chain.
      SOLANA_RPC_URL: `http://127.0.0.1:${await freePort()},${chain.url}`,
      USDT_MINT_SOLANA: mints.USDT.toBase58(),
      USDC_MINT_SOLANA: mints.USDC.toBase58(),
      SOLANA_COMMITMENT: 'finalized',
      // Solana Pay wallets only follow https transaction-request links.
      PUBLIC_BASE_URL: 'https://pay.example.test',
      PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: String(NOT_FOUND_TIMEOUT_SECONDS),
    });
    server = h.server;
  },
  () => [h, chain],
);

// ---- helpers ------------------------------------------------------------------------------------

const units = (amount: string) => parseUnits(amount, 6);
/** A signature of the right form that no transaction has. */
const unknownSignature = () => encodeBase58(randomBytes(64));

type Order = PaidOrder & { token: TokenName; txRequestUrl: string };
type Shop = Awaited<ReturnType<typeof newShop>>;

/** A merchant with a Solana wallet of its own (a fresh key: its token accounts are ours to watch). */
async function newShop() {
  const shop = await h.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
  return { ...shop, wallet: new PublicKey(shop.wallet) };
}

const createOrder = async (
  shop: Shop,
  token: TokenName,
  amount: string,
  extra: Record<string, unknown> = {},
) => (await h.createOrder(shop, { token, amount, ...extra })) as Order;
const getOrder = async (shop: Shop, reference: string) => (await h.getOrder(shop, reference)) as Order;
const auditOf = (shop: Shop, reference: string) => h.auditOf(shop, reference);
const statusChanges = (audit: AuditEntry[]) => h.statusChanges(audit);
const webhookTypes = (shop: Shop, reference: string) => h.webhookTypes(shop, reference);
const lastWebhook = (shop: Shop, reference: string, type: string) => h.lastWebhook(shop, reference, type);
const runJobs = (done: () => Promise<boolean>, opts?: { timeoutMs?: number }) => h.runJobs(done, opts);
const deliverWebhooks = () => h.deliverWebhooks();
const settle = async (shop: Shop, reference: string, status: string, opts?: { timeoutMs?: number }) =>
  (await h.settle(shop, reference, status, opts)) as Order;
const runJobsFor = (rounds: number) => h.runJobsFor(rounds);
const submitTx = (reference: string, txId: string) => h.submitTx(reference, txId);

/** Pays like a wallet that received the transfer-request link (payUrl), without any report. */
function walletPays(
  shop: Shop,
  order: Order,
  opts: { payer: Keypair; amountUnits?: bigint; reference?: boolean; mint?: PublicKey; to?: PublicKey },
) {
  return chain.transfer({
    payer: opts.payer,
    recipientOwner: opts.to ?? shop.wallet,
    mint: opts.mint ?? new PublicKey(order.tokenMintOrContract),
    amountUnits: opts.amountUnits ?? units(order.amount),
    reference: opts.reference === false ? undefined : new PublicKey(order.reference),
  });
}

/** The TransferChecked instruction of a transaction built by the transaction request. */
function transferOf(base64: string) {
  const tx = Transaction.from(Buffer.from(base64, 'base64'));
  const ix = tx.instructions.filter((i) => i.programId.equals(TOKEN_PROGRAM_ID));
  expect(ix).toHaveLength(1);
  return { tx, transfer: decodeTransferCheckedInstruction(ix[0]!) };
}

/** The payer's wallet asks the service to build the payment (Solana Pay transaction request, GET). */
const txRequest = (reference: string, account: PublicKey) =>
  server.api('GET', `/pay/tx-request/${reference}?account=${account.toBase58()}`);

function expectPayError(res: ApiResponse, status: number, code: string) {
  expectErrorBody(res, status, code);
  expect((res.body as { message?: unknown }).message).toBe(
    (res.body as { error: { message: string } }).error.message,
  );
}

// ---- per token ----------------------------------------------------------------------------------

describe.each(['USDT', 'USDC'] as const)('%s on Solana', (token) => {
  const mint = () => mints[token];
  const otherMint = () => mints[token === 'USDT' ? 'USDC' : 'USDT'];

  /** A new shop, its order of `amount` in this token, and a payer holding the token: how most tests start. */
  async function orderAndPayer(amount: string) {
    const shop = await newShop();
    const order = await createOrder(shop, token, amount);
    return { shop, order, payer: await chain.newPayer({ mint: mint() }) };
  }

  it('uses its own mint everywhere: order, payUrl, and the TransferChecked of the transaction request', async () => {
    const shop = await newShop();
    const order = await createOrder(shop, token, '12.5');
    expect(order).toMatchObject({
      token,
      amount: '12.500000',
      tokenMintOrContract: mint().toBase58(),
      recipient: shop.wallet.toBase58(),
    });
    expect(order.payUrl).toContain(`spl-token=${mint().toBase58()}`);
    const payer = await chain.newPayer({ mint: mint() });
    const res = await txRequest(order.reference, payer.publicKey);
    expect(res.status, res.text).toBe(200);
    const { tx, transfer } = transferOf(res.body.transaction);
    expect(tx.feePayer!.equals(payer.publicKey)).toBe(true);
    expect(transfer.keys.mint.pubkey.equals(mint())).toBe(true);
    expect(transfer.data.amount).toBe(12_500_000n);
    expect(transfer.data.decimals).toBe(6);
    expect(transfer.keys.source.pubkey.equals(getAssociatedTokenAddressSync(mint(), payer.publicKey))).toBe(
      true,
    );
    expect(
      transfer.keys.destination.pubkey.equals(getAssociatedTokenAddressSync(mint(), shop.wallet, true)),
    ).toBe(true);
    expect(transfer.keys.multiSigners.map((k) => k.pubkey.toBase58())).toEqual([order.reference]);
  });

  it('paid through tx-request and submit-tx: CONFIRMING until finalized, then PAID', async () => {
    const { shop, order, payer } = await orderAndPayer('3.25');
    const built = await server.api('POST', `/pay/tx-request/${order.reference}`, {
      body: { account: payer.publicKey.toBase58() },
    });
    expect(built.status, built.text).toBe(200);
    expect(built.body).toMatchObject({ network: 'SOLANA', reference: order.reference, amount: '3.250000' });

    chain.holdFinality(true);
    let txId: string;
    try {
      txId = await chain.signAndSend(built.body.transaction, payer);
      const submitted = await submitTx(order.reference, txId);
      expect(submitted.status, submitted.text).toBe(202);
      expect(submitted.body).toMatchObject({ status: 'CONFIRMING', txId: null });
      // Confirmed but not finalized: the claim waits, whatever the number of checks.
      await runJobsFor(4);
      expect((await getOrder(shop, order.reference)).status).toBe('CONFIRMING');
      expect((await auditOf(shop, order.reference)).map((e) => e.type)).not.toContain('payment.verified');
      chain.finalizeAll();
    } finally {
      chain.holdFinality(false);
    }

    const paid = await settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amount: '3.250000', amountReceived: '3.250000', txId, paidLate: false });
    expect(paid.paidAt).not.toBeNull();
    const audit = await auditOf(shop, order.reference);
    expect(audit.map((e) => e.type)).toEqual([
      'order.created',
      'tx_request.issued',
      'tx.submitted',
      'status.changed',
      'payment.verified',
      'status.changed',
    ]);
    expect(statusChanges(audit)).toEqual(['PENDING->CONFIRMING', 'CONFIRMING->PAID']);
    expect(audit.find((e) => e.type === 'tx.submitted')).toMatchObject({ actor: 'payer', data: { txId } });
    expect(audit.find((e) => e.type === 'payment.verified')).toMatchObject({
      actor: 'system',
      data: {
        txId,
        amount: '3.250000',
        amountReceived: '3.250000',
        matchedBy: 'tag',
        source: 'payer',
        from: payer.publicKey.toBase58(),
      },
    });
    expect(webhookTypes(shop, order.reference)).toEqual(['order.created', 'order.confirming', 'order.paid']);
    expect(lastWebhook(shop, order.reference, 'order.paid')).toMatchObject({
      status: 'PAID',
      amountReceived: '3.250000',
      txId,
    });
    expect(await chain.tokenBalance(shop.wallet, mint())).toBe(3_250_000n);

    // Paid is terminal: no further transaction is built for it.
    const again = await txRequest(order.reference, payer.publicKey);
    expectPayError(again, 409, 'CONFLICT');
  });

  it('paid by a wallet-style transfer that nobody reports: found by the scanner', async () => {
    const { shop, order, payer } = await orderAndPayer('7');
    const txId = await walletPays(shop, order, { payer });

    const paid = await settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '7.000000', txId, paidLate: false });
    const audit = await auditOf(shop, order.reference);
    expect(audit.map((e) => e.type)).toEqual(['order.created', 'payment.verified', 'status.changed']);
    expect(audit[1]).toMatchObject({ data: { txId, matchedBy: 'tag', source: 'scanner' } });
    expect(statusChanges(audit)).toEqual(['PENDING->PAID']);
    expect(webhookTypes(shop, order.reference)).toEqual(['order.created', 'order.paid']);
    expect(lastWebhook(shop, order.reference, 'order.paid')).toMatchObject({ status: 'PAID', txId });
  });

  it('paid by a wallet that drops the reference: matched by recipient and (unique) amount', async () => {
    const shop = await newShop();
    const first = await createOrder(shop, token, '5');
    const second = await createOrder(shop, token, '5');
    // Same wallet, same amount: the newer order's amount was made unique.
    expect(first.amount).toBe('5.000000');
    expect(second.amount).toBe('5.000001');
    const payer = await chain.newPayer({ mint: mint() });
    const txId = await walletPays(shop, second, { payer, reference: false });

    const paid = await settle(shop, second.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '5.000001', txId });
    const audit = await auditOf(shop, second.reference);
    expect(audit.find((e) => e.type === 'payment.verified')).toMatchObject({
      data: { txId, matchedBy: 'amount', source: 'scanner' },
    });
    expect(statusChanges(audit)).toEqual(['PENDING->PAID']);
    expect(webhookTypes(shop, second.reference)).toEqual(['order.created', 'order.paid']);
    // The other order is untouched.
    expect((await getOrder(shop, first.reference)).status).toBe('PENDING');
    expect(webhookTypes(shop, first.reference)).toEqual(['order.created']);
  });

  it('underpaid, then topped up through the transaction request (which asks for what is due)', async () => {
    const { shop, order, payer } = await orderAndPayer('10');
    const part = await walletPays(shop, order, { payer, amountUnits: 4_000_000n });

    const underpaid = await settle(shop, order.reference, 'UNDERPAID');
    expect(underpaid).toMatchObject({ amount: '10.000000', amountReceived: '4.000000', txId: part });
    expect(lastWebhook(shop, order.reference, 'order.underpaid')).toMatchObject({
      status: 'UNDERPAID',
      amountReceived: '4.000000',
    });
    const info = await server.api('GET', `/pay/${order.reference}/info`);
    expect(info.body).toMatchObject({ status: 'UNDERPAID', amountDue: '6.000000' });
    // The payment link and QR code ask for the remainder too, so a wallet scanning it does not overpay.
    expect(info.body.payUrl).toContain('amount=6&');
    expect(info.body.qrData).toBe(info.body.payUrl);

    const built = await txRequest(order.reference, payer.publicKey);
    expect(built.status, built.text).toBe(200);
    expect(transferOf(built.body.transaction).transfer.data.amount).toBe(6_000_000n);
    const topUp = await chain.signAndSend(built.body.transaction, payer);

    const paid = await settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amount: '10.000000', amountReceived: '10.000000', txId: topUp });
    const audit = await auditOf(shop, order.reference);
    expect(audit.filter((e) => e.type === 'payment.verified').map((e) => e.data)).toEqual([
      expect.objectContaining({ txId: part, amount: '4.000000', amountReceived: '4.000000' }),
      expect.objectContaining({ txId: topUp, amount: '6.000000', amountReceived: '10.000000' }),
    ]);
    expect(statusChanges(audit)).toEqual(['PENDING->UNDERPAID', 'UNDERPAID->PAID']);
    expect(webhookTypes(shop, order.reference)).toEqual(['order.created', 'order.underpaid', 'order.paid']);
    expect(await chain.tokenBalance(shop.wallet, mint())).toBe(10_000_000n);
  });

  it('overpaid: PAID with amountReceived above amount', async () => {
    const { shop, order, payer } = await orderAndPayer('2');
    const txId = await walletPays(shop, order, { payer, amountUnits: 2_750_000n });
    const paid = await settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amount: '2.000000', amountReceived: '2.750000', txId });
    const audit = await auditOf(shop, order.reference);
    expect(audit.find((e) => e.type === 'payment.verified')).toMatchObject({
      data: { amount: '2.750000', amountReceived: '2.750000' },
    });
    expect(statusChanges(audit)).toEqual(['PENDING->PAID']);
    expect(webhookTypes(shop, order.reference)).toEqual(['order.created', 'order.paid']);
    expect(lastWebhook(shop, order.reference, 'order.paid')).toMatchObject({ amountReceived: '2.750000' });
  });

  /** Reports `txId` for the order and runs the jobs until the claim is rejected; checks the trail. */
  async function expectRejected(
    shop: Shop,
    order: Order,
    txId: string,
    reason: RegExp,
    opts: { submitted?: boolean } = {},
  ) {
    if (!opts.submitted) {
      const submitted = await submitTx(order.reference, txId);
      expect(submitted.status, submitted.text).toBe(202);
      expect(submitted.body.status).toBe('CONFIRMING');
    }
    const back = await settle(shop, order.reference, 'PENDING');
    expect(back).toMatchObject({ amountReceived: '0.000000', txId: null, paidAt: null });
    const audit = await auditOf(shop, order.reference);
    expect(audit.map((e) => e.type)).toEqual([
      'order.created',
      'tx.submitted',
      'status.changed',
      'payment.rejected',
      'status.changed',
    ]);
    const rejected = audit.find((e) => e.type === 'payment.rejected')!;
    expect(rejected).toMatchObject({ actor: 'system', data: { txId } });
    expect(rejected.data.reason).toMatch(reason);
    expect(statusChanges(audit)).toEqual(['PENDING->CONFIRMING', 'CONFIRMING->PENDING']);
    expect(audit.at(-1)!.data.reason).toBe(`reported transaction rejected: ${String(rejected.data.reason)}`);
    expect(webhookTypes(shop, order.reference)).toEqual([
      'order.created',
      'order.confirming',
      'order.payment_rejected',
    ]);
    // The rejection webhook carries the order as it is after the rejection.
    expect(lastWebhook(shop, order.reference, 'order.payment_rejected')).toMatchObject({
      reference: order.reference,
      status: 'PENDING',
    });
    return rejected.data.reason as string;
  }

  it('wrong mint: rejected with the reason in the audit and order.payment_rejected', async () => {
    const shop = await newShop();
    const order = await createOrder(shop, token, '4');
    const payer = await chain.newPayer({ mint: otherMint() });
    const txId = await walletPays(shop, order, { payer, mint: otherMint() });
    const reason = await expectRejected(shop, order, txId, /^wrong token/);
    expect(reason).toContain(mint().toBase58());
  });

  it('wrong recipient: rejected with the reason in the audit and order.payment_rejected', async () => {
    const { shop, order, payer } = await orderAndPayer('4');
    const txId = await walletPays(shop, order, { payer, to: Keypair.generate().publicKey });
    await expectRejected(
      shop,
      order,
      txId,
      new RegExp(`^wrong recipient: no ${token} reached ${shop.wallet.toBase58()}`),
    );
  });

  it('a well-formed signature that does not exist: retried until the deadline, then rejected', async () => {
    const shop = await newShop();
    const order = await createOrder(shop, token, '4');
    const txId = unknownSignature();
    const started = Date.now();
    const submitted = await submitTx(order.reference, txId);
    expect(submitted.status, submitted.text).toBe(202);
    await runJobsFor(2);
    if (Date.now() - started < NOT_FOUND_TIMEOUT_SECONDS * 1000)
      expect((await getOrder(shop, order.reference)).status).toBe('CONFIRMING');
    await expectRejected(shop, order, txId, /^transaction not found on chain within 2 s$/, {
      submitted: true,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(NOT_FOUND_TIMEOUT_SECONDS * 1000);
  });

  it("one signature reported for two orders: both are checked, the order it names is paid, then it is nobody else's (409)", async () => {
    const shop = await newShop();
    const a = await createOrder(shop, token, '6');
    const b = await createOrder(shop, token, '8');
    const payer = await chain.newPayer({ mint: mint() });
    const txId = await walletPays(shop, a, { payer });

    // Reported for the wrong order first (by anyone: the id is public on chain): that report holds
    // nothing, so the right order's reports, the payer's and the merchant's, go through.
    expect((await submitTx(b.reference, txId)).status).toBe(202);
    expect((await submitTx(a.reference, txId)).status).toBe(202);
    expect(
      (await server.api('POST', `/orders/${a.reference}/submit-tx`, { token: shop.token, body: { txId } }))
        .status,
    ).toBe(202);

    // The scanner sees the transaction while the reports are open; the wrong one is rejected.
    await server.jobs.runNow('scan-payments');
    const paid = await settle(shop, a.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '6.000000', txId });
    await runJobs(async () => (await getOrder(shop, b.reference)).status === 'PENDING');
    const wrong = await getOrder(shop, b.reference);
    expect(wrong).toMatchObject({ status: 'PENDING', amountReceived: '0.000000', txId: null });
    const bAudit = await auditOf(shop, b.reference);
    expect(bAudit.find((e) => e.type === 'payment.rejected')?.data.reason).toMatch(
      new RegExp(`reference ${a.reference}`),
    );
    expect(webhookTypes(shop, b.reference)).toEqual([
      'order.created',
      'order.confirming',
      'order.payment_rejected',
    ]);
    expect(webhookTypes(shop, a.reference)).toEqual(['order.created', 'order.confirming', 'order.paid']);
    const credits = (await auditOf(shop, a.reference)).filter((e) => e.type === 'payment.verified');
    expect(credits).toHaveLength(1);
    expect(credits[0]!.data).toMatchObject({ txId, matchedBy: 'tag' });

    // Once it paid A, it can be reported for nothing else.
    expectErrorBody(await submitTx(b.reference, txId), 409, 'CONFLICT');

    // Two reports at the same moment: both are checked, exactly one order is credited.
    const c = await createOrder(shop, token, '9');
    const d = await createOrder(shop, token, '11');
    const raceTx = await walletPays(shop, c, { payer });
    const answers = await Promise.all([submitTx(c.reference, raceTx), submitTx(d.reference, raceTx)]);
    expect(answers.map((r) => r.status)).toEqual([202, 202]);
    expect(await settle(shop, c.reference, 'PAID')).toMatchObject({
      txId: raceTx,
      amountReceived: '9.000000',
    });
    await runJobs(async () => (await getOrder(shop, d.reference)).status === 'PENDING');
    expect(webhookTypes(shop, c.reference)).toContain('order.paid');
    expect(webhookTypes(shop, d.reference)).not.toContain('order.paid');
  });

  it("a payment naming another order's reference never pays the order it is reported for", async () => {
    const shop = await newShop();
    // B: 10 due, 5 received. A: 5, exactly what B still lacks (made before B's partial payment:
    // one made after it avoids what is due on B).
    const b = await createOrder(shop, token, '10');
    const a = await createOrder(shop, token, '5');
    expect(a.amount).toBe('5.000000');
    const payer = await chain.newPayer({ mint: mint() });
    await walletPays(shop, b, { payer, amountUnits: 5_000_000n });
    await settle(shop, b.reference, 'UNDERPAID');
    const txId = await walletPays(shop, a, { payer });

    expect((await submitTx(b.reference, txId)).status).toBe(202);
    await runJobs(async () => (await getOrder(shop, b.reference)).status !== 'CONFIRMING');
    const bAudit = await auditOf(shop, b.reference);
    expect(bAudit.find((e) => e.type === 'payment.rejected')?.data.reason).toMatch(/another order/);
    expect(await settle(shop, a.reference, 'PAID')).toMatchObject({ txId, amountReceived: '5.000000' });
    expect(await getOrder(shop, b.reference)).toMatchObject({
      status: 'UNDERPAID',
      amountReceived: '5.000000',
    });
  });

  it('paid after expiry (within the late window): PAID with paidLate', async () => {
    const shop = await newShop();
    const order = await createOrder(shop, token, '15');
    await server.deps.db.sequelize.query(
      `UPDATE orders SET expires_at = now() - interval '1 minute' WHERE reference = :reference`,
      { replacements: { reference: order.reference } },
    );
    expect(await server.jobs.runNow('expire-orders')).toBeGreaterThanOrEqual(1);
    await deliverWebhooks();
    expect((await getOrder(shop, order.reference)).status).toBe('EXPIRED');
    expect(webhookTypes(shop, order.reference)).toEqual(['order.created', 'order.expired']);

    const payer = await chain.newPayer({ mint: mint() });
    const txId = await walletPays(shop, order, { payer });
    const paid = await settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '15.000000', txId, paidLate: true });
    expect(new Date(paid.paidAt!).getTime()).toBeGreaterThan(new Date(paid.expiresAt).getTime());
    const audit = await auditOf(shop, order.reference);
    expect(statusChanges(audit)).toEqual(['PENDING->EXPIRED', 'EXPIRED->PAID']);
    expect(audit.at(-1)!.data.reason).toBe('paid in full after expiry (late payment)');
    expect(webhookTypes(shop, order.reference)).toEqual(['order.created', 'order.expired', 'order.paid']);
    expect(lastWebhook(shop, order.reference, 'order.paid')).toMatchObject({
      status: 'PAID',
      paidLate: true,
    });
  });

  it('tx-request refuses a payer without the token account (400) or the balance (400)', async () => {
    const shop = await newShop();
    const order = await createOrder(shop, token, '1.5');
    const noAccount = await chain.newPayer({});
    const none = await txRequest(order.reference, noAccount.publicKey);
    expectPayError(none, 400, 'VALIDATION_ERROR');
    expect(none.body.message).toMatch(new RegExp(`has no ${token} token account`));
    const poor = await chain.newPayer({ mint: mint(), units: 1_499_999n });
    const short = await server.api('POST', `/pay/tx-request/${order.reference}`, {
      body: { account: poor.publicKey.toBase58() },
    });
    expectPayError(short, 400, 'VALIDATION_ERROR');
    expect(short.body.message).toMatch(new RegExp(`holds 1.499999 ${token}, less than the 1.5 ${token} due`));
    // A balance in the other token does not count.
    const other = await chain.newPayer({ mint: otherMint() });
    const wrong = await txRequest(order.reference, other.publicKey);
    expectPayError(wrong, 400, 'VALIDATION_ERROR');
  });

  it('pays as a real Solana Pay client: parseURL, fetchTransaction (POST), sign, send; the service finds it', async () => {
    const shop = await newShop();
    const order = await createOrder(shop, token, '21.75', { description: 'Order #7' });
    const transfer = parseURL(order.payUrl) as TransferRequestURL;
    expect(transfer.recipient.toBase58()).toBe(shop.wallet.toBase58());
    expect(transfer.amount!.toFixed(6)).toBe(order.amount);
    expect(transfer.splToken!.toBase58()).toBe(mint().toBase58());
    expect(transfer.reference!.map((r) => r.toBase58())).toEqual([order.reference]);
    expect(transfer.label).toBe('Chain Shop');
    expect(transfer.message).toBe('Order #7');

    const request = parseURL(order.txRequestUrl) as TransactionRequestURL;
    expect(request.link.toString()).toBe(`https://pay.example.test/pay/tx-request/${order.reference}`);
    const link = new URL(request.link.pathname, server.url); // the same server, reachable here
    const hello = await fetch(link);
    expect(await hello.json()).toEqual({
      label: 'Chain Shop',
      icon: 'https://pay.example.test/pay/icon.svg',
    });

    const payer = await chain.newPayer({ mint: mint() });
    const tx = await fetchTransaction(chain.connection, payer.publicKey, link);
    tx.sign(payer);
    const txId = await chain.connection.sendRawTransaction(tx.serialize());
    await chain.connection.confirmTransaction(txId, 'confirmed');
    const found = await findReference(chain.connection, transfer.reference![0]!, { finality: 'confirmed' });
    expect(found.signature).toBe(txId);
    await validateTransfer(
      chain.connection,
      txId,
      {
        recipient: transfer.recipient,
        amount: transfer.amount!,
        splToken: transfer.splToken,
        reference: transfer.reference,
      },
      { commitment: 'confirmed' },
    );

    const paid = await settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '21.750000', txId });
    const audit = await auditOf(shop, order.reference);
    expect(audit.map((e) => e.type)).toEqual([
      'order.created',
      'tx_request.issued',
      'payment.verified',
      'status.changed',
    ]);
    expect(audit[1]).toMatchObject({ actor: 'payer', data: { account: payer.publicKey.toBase58() } });
    expect(audit[2]).toMatchObject({ data: { txId, matchedBy: 'tag', source: 'scanner' } });
    expect(webhookTypes(shop, order.reference)).toEqual(['order.created', 'order.paid']);
  });
});

// ---- not per token ------------------------------------------------------------------------------

describe('Solana payments: scanning cost and an unreachable RPC', () => {
  it('settles a backlog larger than one scan cycle completely, oldest first, skipping nothing', async () => {
    const shop = await newShop();
    const orders: Order[] = [];
    for (let i = 0; i < 5; i++) orders.push(await createOrder(shop, 'USDT', `${40 + i}`));
    const payer = await chain.newPayer({ mint: mints.USDT, units: 1_000_000_000n });
    // Five unreported payments land before any scan; a cycle may settle only two per address.
    for (const order of orders) await walletPays(shop, order, { payer });
    const paidCount = async () =>
      (await Promise.all(orders.map((o) => getOrder(shop, o.reference)))).filter((o) => o.status === 'PAID')
        .length;
    const progress: number[] = [];
    for (let cycle = 0; cycle < 3; cycle++) {
      await scanPayments(server.deps, { maxPerAddress: 2 });
      progress.push(await paidCount());
    }
    expect(progress).toEqual([2, 4, 5]);
    // Oldest first: the first two orders paid were the first two paid on chain.
    const first = await Promise.all(orders.slice(0, 2).map((o) => getOrder(shop, o.reference)));
    expect(first.map((o) => o.status)).toEqual(['PAID', 'PAID']);
  });

  it('a scan cycle makes the same RPC calls with 10 and with 1,000 open orders', async () => {
    const shop = await newShop();
    const orders: Order[] = [];
    for (let i = 0; i < 10; i++) orders.push(await createOrder(shop, 'USDT', `${20 + i}`));
    await chain.mintTo(shop.wallet, mints.USDT, 0n); // the wallet's token account exists, with a history
    await server.jobs.runNow('scan-payments'); // every watched address has its cursor now
    const payer = await chain.newPayer({ mint: mints.USDT, units: 10_000_000_000n });

    const openOrders = async () =>
      server.deps.db.models.Order.count({
        where: { recipient: shop.wallet.toBase58(), status: ['PENDING', 'CONFIRMING', 'UNDERPAID'] },
      });
    /** One new payment to the wallet, then one scan cycle, counted. */
    async function measuredScan(order: Order) {
      const txId = await walletPays(shop, order, { payer });
      chain.resetRpcCalls();
      const started = performance.now();
      const found = await server.jobs.runNow('scan-payments');
      const ms = performance.now() - started;
      const calls = { ...chain.rpcCalls };
      expect(found).toBe(1);
      expect(await getOrder(shop, order.reference)).toMatchObject({ status: 'PAID', txId });
      return { calls, ms };
    }

    expect(await openOrders()).toBe(10);
    const ten = await measuredScan(orders[0]!);

    // 991 more open orders to the same wallet (inserted directly: the scan reads only the database).
    const createdAt = performance.now();
    await server.deps.db.sequelize.query(
      `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient,
                           amount_units, status, expires_at, created_at, updated_at)
       SELECT r.reference, o.merchant_id, o.wallet_id, o.network, o.token, o.token_mint, o.recipient,
              100000000 + r.n * 1000, 'PENDING', o.expires_at, now(), now()
         FROM orders o, unnest(ARRAY[:references]::text[]) WITH ORDINALITY AS r(reference, n)
        WHERE o.reference = :template`,
      {
        replacements: {
          references: Array.from({ length: 991 }, () => encodeBase58(randomBytes(32))),
          template: orders[2]!.reference,
        },
      },
    );
    const createMs = performance.now() - createdAt;
    expect(await openOrders()).toBe(1000);
    const thousand = await measuredScan(orders[1]!);

    console.log(
      `[solana-payments] scan cycle RPC calls: 10 open orders ${JSON.stringify(ten.calls)} in ${ten.ms.toFixed(0)} ms; ` +
        `1,000 open orders ${JSON.stringify(thousand.calls)} in ${thousand.ms.toFixed(0)} ms ` +
        `(991 orders created in ${createMs.toFixed(0)} ms)`,
    );
    expect(thousand.calls).toEqual(ten.calls);
    expect(ten.calls.getSignaturesForAddress).toBeGreaterThan(0);
    expect(ten.calls.getTransaction).toBe(1);
  });

  it('the RPC stops mid-way: tx-request answers 502, jobs postpone, and the payments are found once it is back', async () => {
    const shop = await newShop();
    const scanned = await createOrder(shop, 'USDT', '13');
    const reported = await createOrder(shop, 'USDC', '14');
    await server.jobs.runNow('scan-payments');
    const payer = await chain.newPayer({ mint: mints.USDT });
    const payerUsdc = await chain.newPayer({ mint: mints.USDC });
    // Both payments land; then the service loses its RPC before it has looked at either.
    const scannedTx = await walletPays(shop, scanned, { payer });
    const reportedTx = await walletPays(shop, reported, { payer: payerUsdc });

    await chain.stopRpc();
    try {
      const get = await txRequest(scanned.reference, payer.publicKey);
      expectPayError(get, 502, 'UPSTREAM_UNAVAILABLE');
      expect(get.body.message).not.toContain(chain.url);
      const post = await server.api('POST', `/pay/tx-request/${scanned.reference}`, {
        body: { account: payer.publicKey.toBase58() },
      });
      expectPayError(post, 502, 'UPSTREAM_UNAVAILABLE');
      // Reporting needs no chain: accepted now, verified later.
      expect((await submitTx(reported.reference, reportedTx)).status).toBe(202);

      await runJobsFor(3);
      expect(h.logs.some((l) => l.msg === 'payment scan postponed')).toBe(true);
      expect(h.logs.some((l) => l.msg === 'payment check postponed')).toBe(true);
      expect((await getOrder(shop, scanned.reference)).status).toBe('PENDING');
      expect((await getOrder(shop, reported.reference)).status).toBe('CONFIRMING');
      // Being unreachable is not a verdict: nothing was rejected meanwhile.
      expect((await auditOf(shop, reported.reference)).map((e) => e.type)).not.toContain('payment.rejected');
      // Longer than the not-found deadline: an outage must not turn a real payment into a rejection.
      await sleep(NOT_FOUND_TIMEOUT_SECONDS * 1000 + 200);
      await runJobsFor(1);
    } finally {
      await chain.startRpc();
    }

    const paidByScan = await settle(shop, scanned.reference, 'PAID');
    expect(paidByScan).toMatchObject({ txId: scannedTx, amountReceived: '13.000000' });
    const paidByReport = await settle(shop, reported.reference, 'PAID');
    expect(paidByReport).toMatchObject({ txId: reportedTx, amountReceived: '14.000000' });
    expect(statusChanges(await auditOf(shop, scanned.reference))).toEqual(['PENDING->PAID']);
    expect((await auditOf(shop, reported.reference)).map((e) => e.type)).toEqual([
      'order.created',
      'tx.submitted',
      'status.changed',
      'payment.verified',
      'status.changed',
    ]);
    expect(webhookTypes(shop, scanned.reference)).toEqual(['order.created', 'order.paid']);
    expect(webhookTypes(shop, reported.reference)).toEqual([
      'order.created',
      'order.confirming',
      'order.paid',
    ]);

    // The RPC failing between listing and reading (getTransaction only) loses nothing either.
    const late = await createOrder(shop, 'USDT', '16');
    const lateTx = await walletPays(shop, late, { payer });
    chain.setRpcFault((method) => (method === 'getTransaction' ? { httpStatus: 503 } : undefined));
    try {
      await runJobsFor(2);
      expect((await getOrder(shop, late.reference)).status).toBe('PENDING');
    } finally {
      chain.setRpcFault(null);
    }
    expect(await settle(shop, late.reference, 'PAID')).toMatchObject({ txId: lateTx });
  });

  it('USDC is refused when USDC_MINT_SOLANA is not set', async () => {
    const plain = await startTestServer({
      SOLANA_RPC_URL: chain.url,
      USDT_MINT_SOLANA: mints.USDT.toBase58(),
      JOBS_ENABLED: 'false',
    });
    try {
      const m = await newMerchant(plain, { wallets: ['SOLANA'] });
      const res = await plain.api('POST', '/orders', {
        token: m.token,
        body: { network: 'SOLANA', token: 'USDC', amount: '1' },
      });
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.message).toMatch(/USDC is not enabled/);
      const usdt = await plain.api('POST', '/orders', {
        token: m.token,
        body: { network: 'SOLANA', token: 'USDT', amount: '1' },
      });
      expect(usdt.status).toBe(201);
      expect(usdt.body.tokenMintOrContract).toBe(mints.USDT.toBase58());
    } finally {
      await plain.stop();
    }
  });
});
