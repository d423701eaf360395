import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { findSubscription } from './find-subscription';
import { stopBilling } from './stop-billing';
import type { Actor } from '../events/actor';

/**
 * Ends a subscription. Now: CANCELED at once, no further order (an open one stays payable until it
 * expires). At period end: no order after the current period, CANCELED by the billing job when it
 * ends (the customer's page always cancels so). A CANCELED one is a 409.
 */
export async function cancelSubscription(
  deps: Deps,
  input: { id: string; merchantId: string; atPeriodEnd: boolean; actor: Actor },
) {
  return deps.db.sequelize.transaction(async (transaction) => {
    const subscription = await findSubscription(
      deps,
      { id: input.id, merchantId: input.merchantId },
      { transaction, lock: true },
    );
    if (subscription.status === 'CANCELED') throw ApiError.conflict('The subscription is already canceled');
    // Paused or never billed: nothing runs to the end of a period, so it ends now.
    if (input.atPeriodEnd && subscription.status !== 'PAUSED' && subscription.billedPeriod >= 0) {
      subscription.cancelAtPeriodEnd = true;
      subscription.updatedAt = deps.clock();
      await subscription.save({ transaction });
      return subscription;
    }
    subscription.canceledAt = deps.clock();
    return stopBilling(deps, transaction, subscription, {
      cause: 'canceled',
      to: 'CANCELED',
      actor: input.actor,
    });
  });
}
