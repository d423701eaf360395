import { randomBytes } from 'node:crypto';
import { toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { parseUnits } from '../../contract/decimal';
import { encodeBase58 } from '../../server/lib/base58';
import {
  startPaymentHarness,
  type HarnessShop as Shop,
  type PaymentHarness,
  usePaymentStack,
} from '../support/payment-harness';
import { refundDrivers, startRefundChains, type RefundChains } from '../support/refund-chains';

/**
 * A payment the payer reports and the scanner finds: one payment, credited once, and the order goes
 * where the facts say (a part payment: UNDERPAID), whichever of the two comes first, on every
 * network family. The payer's wallet reports as it sends, so the report often lands while the
 * scanner is crediting the same transfer; an open report of another transaction still holds the
 * order as before. Jobs are driven by hand.
 */

let chains: RefundChains;
let h: PaymentHarness;

usePaymentStack(
  async () => {
    chains = await startRefundChains();
    h = await startPaymentHarness({ ...chains.env, PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: '3' });
  },
  () => [h, chains?.solana, chains?.polygon],
);

const drivers = refundDrivers(() => chains);
/** Each network family's driver, and a transaction id of its form that no chain knows. */
const NETWORKS = [
  { driver: drivers.solana, madeUpTxId: () => encodeBase58(randomBytes(64)) },
  { driver: drivers.polygon, madeUpTxId: () => toHex(randomBytes(32)) },
].map((n) => ({ ...n, network: n.driver.network }));

const claimsOf = async (txId: string) =>
  (await h.server.deps.db.models.PaymentClaim.findAll({ where: { txId }, raw: true })).map((c) => ({
    status: c.status,
    source: c.source,
  }));

/**
 * Makes the payer's report land at the worst moment: after the scanner has read the transaction and
 * looked for reports of it, before it credits the order (the report commits in between, as a
 * wallet's does when it reports as it sends). Returns whether it landed there.
 */
function reportWhileScanning(txId: string, report: () => Promise<unknown>) {
  const claims = h.server.deps.db.models.PaymentClaim;
  let landed = false;
  claims.addHook('afterFind', 'reportWhileScanning', async (_found, options) => {
    // Sequelize has put the column names in the query's conditions by now.
    const where = (options as { where?: Record<string, unknown> }).where;
    if (landed || where?.tx_id !== txId || where.status !== 'PENDING') return;
    landed = true;
    await report();
  });
  return {
    landed: () => landed,
    done: () => void claims.removeHook('afterFind', 'reportWhileScanning'),
  };
}

describe.each(NETWORKS)('$network: a part payment the payer reports', (net) => {
  const newShop = async () => (await net.driver.newShop(h)).shop;
  const order = (shop: Shop) => h.createOrder(shop, { amount: '10' });
  /** A transfer of 4 tagged with the order, final. */
  const pay = async (shop: Shop, reference: string) =>
    net.driver.transfer((await net.driver.newPayer()).key, shop.wallet, parseUnits('4', 6), reference);

  /** Credited once, from the payer's report, and UNDERPAID with the news of it: nothing left open. */
  async function expectUnderpaidOnce(shop: Shop, reference: string, txId: string) {
    const under = await h.settle(shop, reference, 'UNDERPAID', { timeoutMs: 5000 });
    expect(under).toMatchObject({ amountReceived: '4.000000', txId });
    expect(await h.ledgerOf(shop, reference)).toEqual([
      expect.objectContaining({ txId, amount: '4.000000', matchedBy: 'tag' }),
    ]);
    expect((await claimsOf(txId)).filter((c) => c.status !== 'VERIFIED')).toEqual([]);
    expect(h.lastWebhook(shop, reference, 'order.underpaid')).toMatchObject({ status: 'UNDERPAID' });
  }

  it('reported while the scanner credits it: the report settles with the credit, UNDERPAID', async () => {
    const shop = await newShop();
    const { reference } = await order(shop);
    const txId = await pay(shop, reference);
    const race = reportWhileScanning(txId, async () =>
      expect((await h.submitTx(reference, txId)).status).toBe(202),
    );
    try {
      await h.server.jobs.runNow('scan-payments');
    } finally {
      race.done();
    }
    expect(race.landed()).toBe(true);
    await expectUnderpaidOnce(shop, reference, txId);
    // One claim: the report carries the credit; no second one of the scanner's beside it.
    expect(await claimsOf(txId)).toEqual([{ status: 'VERIFIED', source: 'payer' }]);
    expect(h.webhookTypes(shop, reference)).toEqual(['order.created', 'order.confirming', 'order.underpaid']);
  });

  it('reported while the scanner credits it, the verifier checking the report: its check stands, UNDERPAID', async () => {
    const shop = await newShop();
    const { reference } = await order(shop);
    const txId = await pay(shop, reference);
    const claims = h.server.deps.db.models.PaymentClaim;
    const race = reportWhileScanning(txId, async () => {
      expect((await h.submitTx(reference, txId)).status).toBe(202);
      // The verifier leases it as it starts reading the transaction.
      await claims.update(
        { lockedBy: 'verifier', lockedUntil: new Date(Date.now() + 60_000) },
        { where: { txId } },
      );
    });
    try {
      await h.server.jobs.runNow('scan-payments');
    } finally {
      race.done();
    }
    expect(race.landed()).toBe(true);
    // The scanner leaves the payment to the report being checked: nothing credited beside it.
    expect(await claimsOf(txId)).toEqual([{ status: 'PENDING', source: 'payer' }]);
    expect((await h.getOrder(shop, reference)).status).toBe('CONFIRMING');
    // The verifier's lease runs out (it stalled): the report is settled by whoever comes next.
    await claims.update({ lockedBy: null, lockedUntil: null }, { where: { txId } });
    await expectUnderpaidOnce(shop, reference, txId);
    expect(await claimsOf(txId)).toEqual([{ status: 'VERIFIED', source: 'payer' }]);
  });

  it('reported, then found by the scanner: UNDERPAID', async () => {
    const shop = await newShop();
    const { reference } = await order(shop);
    const txId = await pay(shop, reference);
    expect((await h.submitTx(reference, txId)).status).toBe(202);
    expect((await h.getOrder(shop, reference)).status).toBe('CONFIRMING');
    await h.server.jobs.runNow('scan-payments');
    await expectUnderpaidOnce(shop, reference, txId);
  });

  it('found by the scanner, then reported: the report changes nothing, UNDERPAID', async () => {
    const shop = await newShop();
    const { reference } = await order(shop);
    const txId = await pay(shop, reference);
    await h.server.jobs.runNow('scan-payments');
    expect((await h.getOrder(shop, reference)).status).toBe('UNDERPAID');
    expect((await h.submitTx(reference, txId)).status).toBe(202);
    await expectUnderpaidOnce(shop, reference, txId);
    expect(await claimsOf(txId)).toEqual([{ status: 'VERIFIED', source: 'scanner' }]);
  });

  it('a report of another transaction still holds the order until it is settled', async () => {
    const shop = await newShop();
    const { reference } = await order(shop);
    const madeUp = net.madeUpTxId();
    expect((await h.submitTx(reference, madeUp)).status).toBe(202);
    const txId = await pay(shop, reference);
    // The part is credited while the other report is still checked: the order waits for it.
    await h.runJobs(async () => (await h.getOrder(shop, reference)).amountReceived === '4.000000');
    expect((await h.getOrder(shop, reference)).status).toBe('CONFIRMING');
    // Not found within PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: rejected, and the order is UNDERPAID.
    await h.settle(shop, reference, 'UNDERPAID', { timeoutMs: 15_000 });
    expect(await claimsOf(madeUp)).toEqual([{ status: 'REJECTED', source: 'payer' }]);
    expect(await claimsOf(txId)).toEqual([{ status: 'VERIFIED', source: 'scanner' }]);
    expect(h.webhookTypes(shop, reference)).toEqual([
      'order.created',
      'order.confirming',
      'order.underpaid',
      'order.payment_rejected',
    ]);
  });
});
