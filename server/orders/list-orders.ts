import { Op, QueryTypes, type WhereOptions } from 'sequelize';
import type { z } from 'zod';
import type { ZListOrdersQuery } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { decodeCursor, encodeCursor } from './order-cursor';
import { findOrderRows } from './order-rows';
import { presentOrder, type OrderView } from './present-order';

export const DEFAULT_PER_PAGE = 20;

/** A merchant's orders, by the counts the database keeps (migration 0009): no rows are counted. */
async function countOrders(
  deps: Pick<Deps, 'db'>,
  filter: { merchantId: string; status?: string; network?: string },
): Promise<number> {
  const [row] = await deps.db.sequelize.query<{ total: string | null }>(
    `SELECT sum(n) AS total FROM order_counts
      WHERE merchant_id = :merchantId
        ${filter.status ? 'AND status = :status' : ''} ${filter.network ? 'AND network = :network' : ''}`,
    { type: QueryTypes.SELECT, replacements: filter },
  );
  return Number(row?.total ?? 0);
}

/**
 * Newest first. Page mode counts and offsets; cursor mode is a keyset walk on (merchant_id, id)
 * whose cost does not grow with depth.
 */
export async function listOrders(deps: Deps, merchant: MerchantRow, query: z.infer<typeof ZListOrdersQuery>) {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const where: WhereOptions<Order> = {
    merchantId: merchant.id,
    ...(query.status ? { status: query.status } : {}),
    ...(query.network ? { network: query.network } : {}),
  };
  const present = (o: OrderView) => presentOrder(deps, o, merchant.fullName);

  // An empty cursor starts cursor mode only without a page; with a page it is page mode.
  const cursorMode = query.cursor !== undefined && !(query.cursor === '' && query.page !== undefined);
  if (cursorMode && query.cursor !== undefined) {
    if (query.page !== undefined) throw ApiError.field('query.page', 'cannot be combined with a cursor');
    const after = decodeCursor(query.cursor);
    const rows = await findOrderRows(deps, {
      where: after ? { ...where, id: { [Op.lt]: after } } : where,
      order: [['id', 'DESC']],
      limit: perPage + 1,
    });
    const items = rows.slice(0, perPage);
    const last = items[items.length - 1];
    return {
      items: items.map(present),
      per_page: perPage,
      nextCursor: rows.length > perPage && last ? encodeCursor(last.id) : null,
    };
  }

  const page = query.page ?? 1;
  const [rows, total] = await Promise.all([
    findOrderRows(deps, { where, order: [['id', 'DESC']], limit: perPage, offset: (page - 1) * perPage }),
    countOrders(deps, { merchantId: merchant.id, status: query.status, network: query.network }),
  ]);
  return { items: rows.map(present), page, per_page: perPage, total };
}
