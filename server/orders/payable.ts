import { Op, type WhereOptions } from 'sequelize';
import type { Order } from '../db/models';
import { ApiError } from '../errors';

/**
 * The one rule of whether an order can still be paid: it is not PAID, and its expiry plus the
 * late-payment window has not passed (an expired order keeps being watched, so money that arrives
 * late is never ignored). Creation (unique amounts), scanning, verification, claims, transaction
 * requests and wallet deletion all ask this, in one of its two forms below.
 */
export type PayableRule = { now: Date; lateWindowSeconds: number };

/** Expiry times after this instant are still payable. */
export const payableCutoff = (rule: PayableRule) =>
  new Date(rule.now.getTime() - rule.lateWindowSeconds * 1000);

/** The rule as a Sequelize condition on the orders table. */
export function payableWhere(rule: PayableRule): WhereOptions<Order> {
  return { status: { [Op.ne]: 'PAID' }, expiresAt: { [Op.gt]: payableCutoff(rule) } };
}

/**
 * Whether an order is still watched, as SQL on the orders row `alias` (cutoff bound as
 * `:payableCutoff`): until its late window ends, PAID or not. A PAID order's tag and its options'
 * exact amounts still match then (an overpayment, refundable: DESIGN "The payer's choice of network
 * and token"); its amounts stay reserved until then.
 */
export const watchedSql = (alias: string) => `${alias}.expires_at > :payableCutoff`;

/** watchedSql as a Sequelize condition on the orders table. */
export const watchedWhere = (rule: PayableRule): WhereOptions<Order> => ({
  expiresAt: { [Op.gt]: payableCutoff(rule) },
});

/** The rule for one order in hand. */
export function isPayable(order: Pick<Order, 'status' | 'expiresAt'>, rule: PayableRule): boolean {
  return order.status !== 'PAID' && order.expiresAt.getTime() > payableCutoff(rule).getTime();
}

/** 409 with the reason when the order cannot be paid any more. */
export function assertPayable(order: Pick<Order, 'status' | 'expiresAt'>, rule: PayableRule) {
  if (isPayable(order, rule)) return;
  throw ApiError.conflict(
    order.status === 'PAID' ? 'Order is already paid' : 'Order expired and is past its late-payment window',
  );
}

/** The rule as the service applies it now. */
export const payableNow = (deps: { clock: () => Date; config: { LATE_PAYMENT_WINDOW_SECONDS: number } }) => ({
  now: deps.clock(),
  lateWindowSeconds: deps.config.LATE_PAYMENT_WINDOW_SECONDS,
});
