import type { Address, Hex } from 'viem';
import type { LocalWallet } from '../../sandbox/chains/evm/local-evm';
import { beforeEach, describe, expect, it } from 'vitest';
import { startPaymentHarness, usePaymentStack } from '../support/payment-harness';
import type { HarnessShop, PaidOrder, PaymentHarness } from '../support/payment-harness';
import {
  paidOrderOn,
  refundBecomes as settledRefund,
  refundDrivers,
  startRefundChains,
  REFUND_POLYGON_CONFIRMATIONS,
  type RefundChains,
} from '../support/refund-chains';
import { expectErrorBody } from '../support/test-server';

/**
 * Late refunds, on the local Solana chain and a local Polygon chain, with the service's clock in the
 * test's hands (a database of this file's own, so moving time on touches no other suite's refunds).
 * A refund that FAILED at its deadline may still be paid: a transaction signed before and landing
 * after (a stuck EVM transaction), a link paid late. Such a transfer, final within
 * LATE_PAYMENT_WINDOW_SECONDS after the failure, is recorded (SUCCEEDED, late) and counts; and until
 * the window ends the FAILED refund holds its amount, so a second refund can never spend what the
 * first may still pay: the merchant never refunds more than the order received.
 */

const DEADLINE_SECONDS = 86_400;
const LATE_WINDOW_SECONDS = 86_400;

let chains: RefundChains;
let h: PaymentHarness;
/** How far the service's clock is ahead of the real one; only ever moved forward within a test. */
let aheadMs = 0;
/** A second instance on the same database whose clock lags h's by an hour. */
let lagging: PaymentHarness;
const LAG_MS = 3_600_000;

usePaymentStack(
  async () => {
    chains = await startRefundChains();
    const env = {
      ...chains.env,
      REFUND_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
      LATE_PAYMENT_WINDOW_SECONDS: String(LATE_WINDOW_SECONDS),
    };
    h = await startPaymentHarness(env, { clock: () => new Date(Date.now() + aheadMs) });
    lagging = await startPaymentHarness(env, { clock: () => new Date(Date.now() + aheadMs - LAG_MS) });
  },
  () => [h, lagging, chains?.solana, chains?.polygon],
);

beforeEach(() => {
  aheadMs = 0;
});

type Refund = {
  id: string;
  status: string;
  amount: string;
  to: string | null;
  tag: string;
  payUrl: string | null;
  transaction: { transaction: string } | { chainId: number; to: Address; data: Hex; value: '0' } | null;
  txId: string | null;
  late: boolean;
  failureReason: string | null;
  deadlineAt: string;
  lateUntil: string | null;
};
type Order = PaidOrder & { amountRefunded: string };

const { solana: solanaDriver, polygon: polygonDriver } = refundDrivers(() => chains);

const api = <T = unknown>(method: string, path: string, shop: HarnessShop, body?: object) =>
  h.server.api<T>(method, path, { token: shop.token, body });

async function refundOf(shop: HarnessShop, reference: string, id: string): Promise<Refund> {
  const res = await api<{ items: Refund[] }>('GET', `/orders/${reference}/refunds`, shop);
  expect(res.status, res.text).toBe(200);
  return res.body.items.find((r) => r.id === id)!;
}

const refundBecomes = (shop: HarnessShop, reference: string, id: string, status: string) =>
  settledRefund<Refund>(h, shop, reference, id, status);

/** Moves the service's clock past a refund's deadline, or a FAILED refund's late window. */
function moveClockPast(iso: string) {
  aheadMs = Math.max(aheadMs, Date.parse(iso) - Date.now() + 1000);
}

describe.each([solanaDriver, polygonDriver])('$network', (d) => {
  async function paidOrder(amount: string) {
    const { shop, key } = await d.newShop(h);
    const payer = await d.newPayer();
    const order = await h.createOrder(shop, { amount });
    await d.transfer(payer.key, shop.wallet, BigInt(amount) * 1_000_000n, order.reference);
    await h.settle(shop, order.reference, 'PAID');
    return { shop, key, payer, order };
  }

  it('a refund paid after it FAILED is recorded SUCCEEDED, late; meanwhile no second refund can spend its amount', async () => {
    const { shop, key, payer, order } = await paidOrder('10');
    const created = await api<Refund>('POST', `/orders/${order.reference}/refunds`, shop, {
      to: payer.address,
    });
    expect(created.status, created.text).toBe(201);
    // The merchant's wallet gets the transaction now and sends it only after the deadline.
    const built = created.body;
    expect(built.transaction).not.toBeNull();

    moveClockPast(built.deadlineAt);
    const failed = await refundBecomes(shop, order.reference, built.id, 'FAILED');
    expect(failed).toMatchObject({ late: false, txId: null });
    expect(Date.parse(failed.lateUntil!) - (Date.now() + aheadMs)).toBeGreaterThan(
      (LATE_WINDOW_SECONDS - 60) * 1000,
    );
    // The merchant, seeing FAILED, tries to refund again: refused, the first may still land.
    for (const body of [{ to: payer.address }, { amount: '0.000001', to: payer.address }]) {
      const again = await api('POST', `/orders/${order.reference}/refunds`, shop, body);
      expectErrorBody(again, 400, 'VALIDATION_ERROR');
      expect(again.text).toContain('10.000000 by failed refunds whose transfer may still land, until');
    }

    const before = await d.balance(payer.address);
    const txId = await d.sendBuilt(built, key);
    const late = await refundBecomes(shop, order.reference, built.id, 'SUCCEEDED');
    expect(late).toMatchObject({
      late: true,
      txId: d.network === 'SOLANA' ? txId : txId.toLowerCase(),
      failureReason: expect.stringMatching(/no verified refund transfer/),
    });
    expect(await d.balance(payer.address)).toBe(before + 10_000_000n);
    expect((await h.getOrder(shop, order.reference)) as Order).toMatchObject({
      amountReceived: '10.000000',
      amountRefunded: '10.000000',
    });
    expectErrorBody(
      await api('POST', `/orders/${order.reference}/refunds`, shop, {}),
      400,
      'VALIDATION_ERROR',
    );

    const hooks = h.webhooksFor(shop, order.reference).filter((w) => w.json.type.startsWith('refund.'));
    expect(hooks.map((w) => w.json.type)).toEqual(['refund.created', 'refund.failed', 'refund.succeeded']);
    expect((hooks[2]!.json.data as unknown as { refund: Refund; order: Order }).refund).toMatchObject({
      id: built.id,
      status: 'SUCCEEDED',
      late: true,
    });
    expect((hooks[2]!.json.data as unknown as { order: Order }).order.amountRefunded).toBe('10.000000');
    const audit = (await h.auditOf(shop, order.reference)).find((e) => e.type === 'refund.succeeded');
    expect(audit?.data).toMatchObject({ refundId: built.id, late: true, amountRefunded: '10.000000' });
  });

  it('a FAILED refund holds its amount until its late window ends, and no longer; a transfer after that is not recorded', async () => {
    const { shop, key, order } = await paidOrder('10');
    const first = (
      await api<Refund>('POST', `/orders/${order.reference}/refunds`, shop, {
        amount: '6',
        to: d.freshAddress(),
      })
    ).body;
    moveClockPast(first.deadlineAt);
    const failed = await refundBecomes(shop, order.reference, first.id, 'FAILED');

    // Only what the failed refund does not hold can be refunded.
    const create = (body: object) => api<Refund>('POST', `/orders/${order.reference}/refunds`, shop, body);
    const second = await create({ amount: '4', to: d.freshAddress() });
    expect(second.status, second.text).toBe(201);
    expectErrorBody(await create({ amount: '0.000001', to: d.freshAddress() }), 400, 'VALIDATION_ERROR');

    // Past its window: it holds nothing, is no longer looked for, and its amount is refundable.
    moveClockPast(failed.lateUntil!);
    await h.server.jobs.runNow('verify-refunds');
    const third = await create({ to: d.freshAddress() });
    expect(third.status, third.text).toBe(201);
    expect(third.body.amount).toBe('6.000000');

    // Its transaction landing now pays nobody twice in the books: the refund stays FAILED, even
    // for an instance whose clock lags and still sees the first refund in its window (made due
    // for it, as when it leased the refund just before the window ended).
    await d.sendBuilt(first, key);
    await lagging.server.deps.db.models.Refund.update(
      { nextCheckAt: new Date(0) },
      { where: { id: first.id } },
    );
    for (let i = 0; i < 3; i++) {
      await lagging.server.jobs.runNow('verify-refunds');
      await h.server.jobs.runNow('verify-refunds');
    }
    expect(await refundOf(shop, order.reference, first.id)).toMatchObject({ status: 'FAILED', txId: null });
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefunded).toBe('0.000000');
  });
});

describe('POLYGON refund link paid late', () => {
  it('an untagged transfer of the exact amount after the failure is matched, late', async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, polygonDriver, '20');
    const refund = (
      await api<Refund>('POST', `/orders/${order.reference}/refunds`, shop, {
        amount: '7.25',
        to: payer.address,
      })
    ).body;
    const link =
      /^ethereum:(0x[0-9a-fA-F]{40})@137\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(
        refund.payUrl!,
      );
    expect(link, refund.payUrl!).not.toBeNull();
    moveClockPast(refund.deadlineAt);
    await refundBecomes(shop, order.reference, refund.id, 'FAILED');
    // The wallet app held the link and pays it now.
    const sent = await chains.polygon.transfer({
      from: merchant as LocalWallet,
      token: link![1] as Address,
      to: link![2] as Address,
      units: BigInt(link![3]!),
    });
    await chains.polygon.mine(REFUND_POLYGON_CONFIRMATIONS);
    const done = await refundBecomes(shop, order.reference, refund.id, 'SUCCEEDED');
    expect(done).toMatchObject({ late: true, txId: sent.toLowerCase() });
    const audit = (await h.auditOf(shop, order.reference)).find((e) => e.type === 'refund.succeeded');
    expect(audit?.data).toMatchObject({ matchedBy: 'amount', late: true });
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefunded).toBe('7.250000');
  });
});
