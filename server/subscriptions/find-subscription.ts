import type { Transaction } from 'sequelize';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/** One of the merchant's subscriptions (another merchant's is as unknown as a missing one); `lock` for the caller's transaction. */
export async function findSubscription(
  deps: Pick<Deps, 'db'>,
  where: { id: string; merchantId: string },
  options: { transaction?: Transaction; lock?: boolean } = {},
) {
  const subscription = await deps.db.models.Subscription.findOne({
    where,
    transaction: options.transaction,
    lock: options.lock && options.transaction ? options.transaction.LOCK.UPDATE : undefined,
  });
  if (!subscription) throw ApiError.notFound('Subscription');
  return subscription;
}
