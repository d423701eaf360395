import type { Attributes, Model, ModelStatic, Transaction, WhereOptions } from 'sequelize';
import { ApiError } from '../errors';

/**
 * One of the account's rows by id, or a 404 naming `what` (the same for an unknown id and another
 * account's); `lock` takes a row lock for the caller's transaction.
 */
export async function findOwnRow<M extends Model>(
  model: ModelStatic<M>,
  what: string,
  where: { id: string; merchantId: string },
  options: { transaction?: Transaction; lock?: boolean } = {},
): Promise<M> {
  const row = await model.findOne({
    where: where as unknown as WhereOptions<Attributes<M>>,
    transaction: options.transaction,
    lock: options.lock && options.transaction ? options.transaction.LOCK.UPDATE : undefined,
  });
  if (!row) throw ApiError.notFound(what);
  return row;
}
