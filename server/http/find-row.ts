import type { Attributes, Model, ModelStatic, Transaction, WhereOptions } from 'sequelize';
import { ApiError } from '../errors';

/**
 * The one row `where` names, or a 404 naming `what` (with the account in `where`, the same for an
 * unknown row and another account's); `lock` takes a row lock for the caller's transaction.
 */
export async function findRowOrNotFound<M extends Model>(
  model: ModelStatic<M>,
  what: string,
  where: Record<string, string>,
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
