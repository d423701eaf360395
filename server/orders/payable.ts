import { Op, type WhereOptions } from 'sequelize';
import type { Order } from '../db/models';
import { ApiError } from '../errors';

/**
 * The one rule of whether an order can still be paid: it is not PAID, its expiry plus the
 * late-payment window has not passed (an expired order keeps being watched, so money that arrives
 * late is never ignored), and no other order paid for what it bills (`supersededAt`: a subscription
 * period's remade order once the expired one was paid late; closed for good). Creation (unique amounts), scanning, verification, claims, transaction
 * requests and wallet deletion all ask this, in one of its two forms below.
 */
export type PayableRule = { now: Date; lateWindowSeconds: number };

/** Expiry times after this instant are still payable. */
export const payableCutoff = (rule: PayableRule) =>
  new Date(rule.now.getTime() - rule.lateWindowSeconds * 1000);

/** The rule as a Sequelize condition on the orders table. */
export function payableWhere(rule: PayableRule): WhereOptions<Order> {
  return { status: { [Op.ne]: 'PAID' }, ...watchedWhere(rule) };
}

/**
 * Whether an order is still watched, as SQL on the orders row `alias` (cutoff bound as
 * `:payableCutoff`): until its late window ends, PAID or not, unless it was superseded (a transfer
 * to it is then nobody's: kept unattributed for the merchant). A PAID order's tag and its options'
 * exact amounts still match then (an overpayment, refundable: DESIGN "The payer's choice of network
 * and token"); its amounts stay reserved until then.
 */
export const watchedSql = (alias: string) =>
  `${alias}.expires_at > :payableCutoff AND ${alias}.superseded_at IS NULL`;

/** watchedSql as a Sequelize condition on the orders table. */
export const watchedWhere = (rule: PayableRule): WhereOptions<Order> => ({
  expiresAt: { [Op.gt]: payableCutoff(rule) },
  supersededAt: null,
});

/** The rule for one order in hand. */
type PayableFields = Pick<Order, 'status' | 'expiresAt' | 'supersededAt'>;

export function isPayable(order: PayableFields, rule: PayableRule): boolean {
  return (
    order.status !== 'PAID' &&
    order.supersededAt === null &&
    order.expiresAt.getTime() > payableCutoff(rule).getTime()
  );
}

/** 409 with the reason when the order cannot be paid any more. */
export function assertPayable(order: PayableFields, rule: PayableRule) {
  if (isPayable(order, rule)) return;
  throw ApiError.conflict(
    order.status === 'PAID'
      ? 'Order is already paid'
      : order.supersededAt !== null
        ? 'Order is closed: another order paid for what it billed'
        : 'Order expired and is past its late-payment window',
  );
}

/** The rule as the service applies it now. */
export const payableNow = (deps: { clock: () => Date; config: { LATE_PAYMENT_WINDOW_SECONDS: number } }) => ({
  now: deps.clock(),
  lateWindowSeconds: deps.config.LATE_PAYMENT_WINDOW_SECONDS,
});
