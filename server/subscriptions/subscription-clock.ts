import type { Config } from '../config';
import type { Subscription } from '../db/models';
import { daysMs, periodAt, periodIndexAt, type Period, type PeriodRule } from './periods';

type Plan = Pick<Subscription, 'anchorAt' | 'interval' | 'intervalCount' | 'dueDays'>;
type Billing = Pick<Subscription, 'status' | 'billedPeriod' | 'cancelAtPeriodEnd'>;

/**
 * A subscription's periods and durations on the subscriptions' clock (SUBSCRIPTION_DAY_SECONDS
 * scales every one of them): the one place they are computed.
 */
export function subscriptionClock(
  config: Pick<
    Config,
    'SUBSCRIPTION_DAY_SECONDS' | 'SUBSCRIPTION_CANCEL_AFTER_DAYS' | 'SUBSCRIPTION_REMINDER_HOURS'
  >,
  plan: Plan,
) {
  const daySeconds = config.SUBSCRIPTION_DAY_SECONDS;
  const rule: PeriodRule = {
    anchor: plan.anchorAt,
    interval: plan.interval,
    count: plan.intervalCount,
    daySeconds,
  };
  return {
    period: (index: number): Period => periodAt(rule, index),
    periodIndexAt: (at: Date) => periodIndexAt(rule, at),
    /** When an order made for `period` at `madeAt` stops being payable: dueDays later, within the period. */
    orderExpiry: (period: Period, madeAt: Date) =>
      new Date(Math.max(madeAt.getTime(), period.start.getTime()) + daysMs(plan.dueDays, daySeconds)),
    /** When the reminder of an order expiring at `expiresAt` is due. */
    reminderAt: (expiresAt: Date) =>
      new Date(expiresAt.getTime() - daysMs(config.SUBSCRIPTION_REMINDER_HOURS / 24, daySeconds)),
    /** When a subscription past due since `since` is canceled. */
    graceEnd: (since: Date) =>
      new Date(since.getTime() + daysMs(config.SUBSCRIPTION_CANCEL_AFTER_DAYS, daySeconds)),
    /** When the next period's order is due; null when no further order will be made. */
    nextOrderAt(billing: Billing): Date | null {
      if (billing.status === 'PAUSED' || billing.status === 'CANCELED' || billing.cancelAtPeriodEnd)
        return null;
      return periodAt(rule, billing.billedPeriod + 1).start;
    },
    days: (days: number) => daysMs(days, daySeconds),
  };
}
export type SubscriptionClock = ReturnType<typeof subscriptionClock>;
