import { Op, type WhereOptions } from 'sequelize';
import type { z } from 'zod';
import type { ZListOrdersQuery } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { decodeCursor, encodeCursor } from './order-cursor';
import { findOrderRows, merchantOrderRows } from './order-rows';
import { presentOrder, type OrderView } from './present-order';
import { orderOnNetworkSql } from './payment-options';
import { refundableUnitsOf } from './refundable-amount';

export const DEFAULT_PER_PAGE = 20;

/**
 * A merchant's orders, by the counts the database keeps: no rows are counted. Each order is counted
 * under its first network (migration 0009) and, when it has more payment options, under each of
 * their other networks (migration 0027): filtered by network, both add up to the orders on it
 * (orderOnNetworkSql); unfiltered, the first network's counts alone count each order once.
 */
async function countOrders(
  deps: Pick<Deps, 'db'>,
  filter: { merchantId: string; status?: string; network?: string },
): Promise<number> {
  // Prepared (one text per filter set): planning it cost more than summing a few rows.
  const where = `WHERE merchant_id = $merchantId ${filter.status ? 'AND status = $status' : ''}`;
  const [row] = await deps.db.prepared.run<{ total: string | null }>(
    filter.network
      ? `SELECT (SELECT coalesce(sum(n), 0) FROM order_counts ${where} AND network = $network)
              + (SELECT coalesce(sum(n), 0) FROM order_option_counts ${where} AND network = $network) AS total`
      : `SELECT sum(n) AS total FROM order_counts ${where}`,
    filter,
  );
  return Number(row?.total ?? 0);
}

/** A list of all the merchant's orders: read by a prepared statement (order-rows.ts). */
const unfiltered = (query: z.infer<typeof ZListOrdersQuery>) =>
  !(query.status || query.network || query.token || query.created_gte || query.created_lt || query.q);

const REFERENCE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * The filters of a list. The search `q` finds an order by its reference, by the transaction id or
 * sender of one of its verified payments (exact), or by words of its description (any case).
 */
function ordersWhere(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: z.infer<typeof ZListOrdersQuery>,
  onlyMember: string | null,
): WhereOptions<Order> {
  const created = {
    ...(query.created_gte ? { [Op.gte]: new Date(query.created_gte) } : {}),
    ...(query.created_lt ? { [Op.lt]: new Date(query.created_lt) } : {}),
  };
  const q = query.q;
  const escaped = q?.replace(/[\\%_]/g, (c) => `\\${c}`);
  const paidWith = q
    ? deps.db.sequelize.literal(
        `(SELECT order_id FROM payment_claims WHERE status = 'VERIFIED' AND (tx_id = ${deps.db.sequelize.escape(q)} OR sender = ${deps.db.sequelize.escape(q)}))`,
      )
    : null;
  return {
    merchantId,
    ...(onlyMember ? { createdByMember: onlyMember } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.network
      ? {
          [Op.and]: [
            // The model's name is the table's alias in its queries.
            deps.db.sequelize.literal(
              orderOnNetworkSql(`"${deps.db.models.Order.name}"`, deps.db.sequelize.escape(query.network)),
            ),
          ],
        }
      : {}),
    ...(query.token ? { token: query.token } : {}),
    ...(query.created_gte || query.created_lt ? { createdAt: created } : {}),
    ...(q
      ? {
          [Op.or]: [
            ...(REFERENCE.test(q) ? [{ reference: q }] : []),
            { id: { [Op.in]: paidWith! } },
            { description: { [Op.iLike]: `%${escaped}%` } },
          ],
        }
      : {}),
  };
}

/**
 * Newest first. Page mode counts and offsets; cursor mode is a keyset walk on (merchant_id, id)
 * whose cost does not grow with depth.
 */
export async function listOrders(
  deps: Deps,
  merchant: MerchantRow,
  query: z.infer<typeof ZListOrdersQuery>,
  /** A cashier's list: only the orders this member made (the kept counts and the merchant's page do not apply). */
  onlyMember: string | null = null,
) {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const where = ordersWhere(deps, merchant.id, query, onlyMember);
  const all = unfiltered(query) && !onlyMember;
  // An empty cursor starts cursor mode only without a page; with a page it is page mode.
  const cursorMode = query.cursor !== undefined && !(query.cursor === '' && query.page !== undefined);
  if (cursorMode && query.cursor !== undefined) {
    if (query.page !== undefined) throw ApiError.field('query.page', 'cannot be combined with a cursor');
    return orderCursorPage(deps, merchant, all ? null : where, {
      perPage,
      cursor: query.cursor,
    });
  }

  const page = query.page ?? 1;
  const offset = (page - 1) * perPage;
  const [rows, total] = await Promise.all([
    all
      ? merchantOrderRows(deps, { merchantId: merchant.id, limit: perPage, offset })
      : findOrderRows(deps, { where, order: [['id', 'DESC']], limit: perPage, offset }),
    // The kept counts know status and network only; other filters count the matching rows.
    query.token || query.created_gte || query.created_lt || query.q || onlyMember
      ? deps.db.models.Order.count({ where })
      : countOrders(deps, { merchantId: merchant.id, status: query.status, network: query.network }),
  ]);
  return { items: await presentOrders(deps, merchant, rows), page, per_page: perPage, total };
}

const presentOrders = async (deps: Deps, merchant: MerchantRow, rows: OrderView[]) => {
  const refundable = await refundableUnitsOf(deps.db, rows, deps.clock());
  return rows.map((o) => presentOrder(deps, o, merchant.fullName, refundable.get(o.id)!));
};

/**
 * A cursor page of the merchant's orders that `where` picks (every one of theirs when null),
 * newest first: a keyset walk on id.
 */
export async function orderCursorPage(
  deps: Deps,
  merchant: MerchantRow,
  where: WhereOptions<OrderView> | null,
  query: { perPage?: number; cursor?: string },
) {
  const perPage = query.perPage ?? DEFAULT_PER_PAGE;
  const after = decodeCursor(query.cursor ?? '');
  const rows = where
    ? await findOrderRows(deps, {
        where: after ? { ...where, id: { [Op.lt]: after } } : where,
        order: [['id', 'DESC']],
        limit: perPage + 1,
      })
    : await merchantOrderRows(deps, { merchantId: merchant.id, limit: perPage + 1, before: after });
  const items = rows.slice(0, perPage);
  const last = items[items.length - 1];
  return {
    items: await presentOrders(deps, merchant, items),
    per_page: perPage,
    nextCursor: rows.length > perPage && last ? encodeCursor(last.id) : null,
  };
}
