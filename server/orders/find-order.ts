import type { Transaction } from 'sequelize';
import type { Models } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { findRowOrNotFound } from '../http/find-row';
import { findOrderRowByReference } from './order-rows';
import type { OrderView } from './present-order';

const byReference = (where: { reference: string; merchantId?: string }): Record<string, string> =>
  where.merchantId
    ? { reference: where.reference, merchantId: where.merchantId }
    : { reference: where.reference };

/**
 * An order by reference; with `merchantId`, only that merchant's (another merchant's order is as
 * unknown as a missing one). `lock` takes a row lock for the caller's transaction.
 */
export const findOrder = (
  models: Models,
  where: { reference: string; merchantId?: string },
  options: { transaction?: Transaction; lock?: boolean } = {},
) => findRowOrNotFound(models.Order, 'Order', byReference(where), options);

/** The same order as a plain row, to present it (a read path: no model instance). */
export async function readOrder(
  deps: Pick<Deps, 'db'>,
  where: { reference: string; merchantId?: string },
): Promise<OrderView> {
  const order = await findOrderRowByReference(deps, where);
  if (!order) throw ApiError.notFound('Order');
  return order;
}
