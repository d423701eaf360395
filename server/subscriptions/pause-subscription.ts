import type { Deps } from '../deps';
import type { Caller } from '../events/actor';
import { ApiError } from '../errors';
import { findSubscription } from './find-subscription';
import { stopBilling } from './stop-billing';

/** PAUSED: no orders until resumed (an open order stays payable; its payment is still recorded). */
export async function pauseSubscription(deps: Deps, input: { id: string; merchantId: string; by: Caller }) {
  return deps.db.sequelize.transaction(async (transaction) => {
    const subscription = await findSubscription(
      deps,
      { id: input.id, merchantId: input.merchantId },
      { transaction, lock: true },
    );
    if (subscription.status === 'PAUSED' || subscription.status === 'CANCELED')
      throw ApiError.conflict(`The subscription is ${subscription.status}`);
    subscription.pausedAt = deps.clock();
    return stopBilling(deps, transaction, subscription, { cause: 'paused', to: 'PAUSED', actor: input.by });
  });
}
