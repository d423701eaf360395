import type { Transaction } from 'sequelize';
import type { Subscription } from '../db/models';
import type { Actor } from '../events/actor';
import type { Deps } from '../deps';
import { applyTransition } from '../events/lifecycle';
import { SUBSCRIPTION_LIFECYCLE } from './subscription-lifecycle';

/**
 * Stops a subscription's billing at once, in the caller's transaction: no next run and no reminder
 * (an open order stays payable), and the move to PAUSED or CANCELED by its lifecycle table.
 */
export async function stopBilling(
  deps: Deps,
  transaction: Transaction,
  subscription: Subscription,
  move: { cause: 'paused' | 'canceled'; to: 'PAUSED' | 'CANCELED'; actor: Actor },
): Promise<Subscription> {
  subscription.nextRunAt = null;
  subscription.reminderAt = null;
  await applyTransition(deps, transaction, SUBSCRIPTION_LIFECYCLE, subscription, move);
  return subscription;
}
