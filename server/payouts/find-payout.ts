import type { Transaction } from 'sequelize';
import type { Payout } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/** The account's payout, or a 404 (the same for an unknown id and another account's). */
export async function findPayout(
  deps: Pick<Deps, 'db'>,
  where: { id: string; merchantId: string },
  options: { transaction?: Transaction; lock?: boolean } = {},
): Promise<Payout> {
  const payout = await deps.db.models.Payout.findOne({
    where,
    transaction: options.transaction,
    lock: options.lock && options.transaction ? options.transaction.LOCK.UPDATE : undefined,
  });
  if (!payout) throw ApiError.notFound('Payout');
  return payout;
}
