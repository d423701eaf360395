import type { Transaction } from 'sequelize';
import type { Subscription } from '../db/models';
import type { Deps } from '../deps';
import { findRowOrNotFound } from '../http/find-row';

/** One of the merchant's subscriptions (another merchant's is as unknown as a missing one); `lock` for the caller's transaction. */
export const findSubscription = (
  deps: Pick<Deps, 'db'>,
  where: { id: string; merchantId: string },
  options: { transaction?: Transaction; lock?: boolean } = {},
): Promise<Subscription> => findRowOrNotFound(deps.db.models.Subscription, 'Subscription', where, options);
