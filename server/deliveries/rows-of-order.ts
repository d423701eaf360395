import type { OrderItem } from 'sequelize';
import { MAX_ORDER_LIST_ITEMS } from '../../contract';
import type { Deps } from '../deps';
import { findOrder } from '../orders/find-order';

/** Oldest first, by the serial id. */
export const BY_ID: OrderItem[] = [['id', 'ASC']];

/**
 * A per-order list: the rows `find` reads of the merchant's order (404 when the order is not the
 * merchant's), at most MAX_ORDER_LIST_ITEMS like every per-order list.
 */
export async function rowsOfOrder<Row>(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  reference: string,
  find: (orderId: string, limit: number) => Promise<Row[]>,
): Promise<Row[]> {
  const order = await findOrder(deps.db.models, { reference, merchantId });
  return find(order.id, MAX_ORDER_LIST_ITEMS);
}
