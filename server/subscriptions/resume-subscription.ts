import { QueryTypes } from 'sequelize';
import type { SubscriptionStatus } from '../../contract';
import type { Deps } from '../deps';
import type { Caller } from '../events/actor';
import { ApiError } from '../errors';
import { applyTransition } from '../events/lifecycle';
import { billSubscription } from './bill-subscription';
import { findSubscription } from './find-subscription';
import { subscriptionClock } from './subscription-clock';
import { SUBSCRIPTION_LIFECYCLE } from './subscription-lifecycle';

/**
 * Back to billing from the period that holds now: when it has an order open or paid, the next
 * order comes at the next period; otherwise it is made at once. The status it resumes in: TRIALING
 * within the trial, INCOMPLETE when nothing was ever paid, else ACTIVE (an unpaid order expiring
 * makes it PAST_DUE as usual).
 */
export async function resumeSubscription(deps: Deps, input: { id: string; merchantId: string; by: Caller }) {
  const resumed = await deps.db.sequelize.transaction(async (transaction) => {
    const subscription = await findSubscription(
      deps,
      { id: input.id, merchantId: input.merchantId },
      { transaction, lock: true },
    );
    if (subscription.status !== 'PAUSED')
      throw ApiError.conflict(`The subscription is ${subscription.status}, not PAUSED`);
    const now = deps.clock();
    const clock = subscriptionClock(deps.config, subscription);
    const [facts] = await deps.db.sequelize.query<{ everPaid: boolean; coveredPeriod: number | null }>(
      `SELECT bool_or(status = 'PAID') AS "everPaid",
              max(period_index) FILTER (WHERE status IN ('PAID', 'PENDING', 'CONFIRMING', 'UNDERPAID')) AS "coveredPeriod"
         FROM orders WHERE subscription_id = :id`,
      { type: QueryTypes.SELECT, replacements: { id: subscription.id }, transaction },
    );
    const inTrial = subscription.anchorAt > now;
    const current = inTrial ? -1 : clock.periodIndexAt(now);
    // The period that holds now is covered: bill from the next one. Otherwise, its order at once.
    subscription.billedPeriod =
      facts?.coveredPeriod !== null && facts?.coveredPeriod !== undefined && facts.coveredPeriod >= current
        ? facts.coveredPeriod
        : current - 1;
    subscription.billedAttempt = 0;
    subscription.pausedAt = null;
    subscription.pastDueSince = null;
    const to: SubscriptionStatus = inTrial ? 'TRIALING' : facts?.everPaid ? 'ACTIVE' : 'INCOMPLETE';
    await applyTransition(deps, transaction, SUBSCRIPTION_LIFECYCLE, subscription, {
      cause: 'resumed',
      to,
      actor: input.by,
    });
    subscription.nextRunAt = now;
    await subscription.save({ transaction });
    return subscription;
  });
  return (await billSubscription(deps, resumed.id)) ?? resumed;
}
