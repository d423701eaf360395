import type { FindOptions, InferAttributes } from 'sequelize';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { ORDER_INPUT } from './created-order';
import type { OrderView } from './present-order';

type Row = Record<string, unknown>;
const BIGINTS = ['amountUnits', 'amountReceivedUnits', 'amountRefundedUnits', 'quoteUnits'] as const;

/** Rows as pg answers them, with the model's own types: its big integers as bigint. */
function asOrderViews(rows: Row[]): OrderView[] {
  for (const row of rows)
    for (const name of BIGINTS) {
      const value = row[name];
      if (value !== null && value !== undefined) row[name] = BigInt(value as string);
    }
  return rows as unknown as OrderView[];
}

/**
 * Orders read as plain rows, not model instances: on the read paths a model per row cost more than
 * the query (profiled on the 20-order list page). The values are the model's own types.
 */
export async function findOrderRows(
  deps: Pick<Deps, 'db'>,
  options: FindOptions<InferAttributes<Order>>,
): Promise<OrderView[]> {
  return asOrderViews((await deps.db.models.Order.findAll({ ...options, raw: true })) as unknown as Row[]);
}

/** Every column of an order under the model's name for it, as Sequelize's raw rows name them. */
const ORDER_FIELDS = ['id', ...ORDER_INPUT.map((c) => `${c.column} AS "${c.name}"`)].join(', ');
const BY_REFERENCE = `SELECT ${ORDER_FIELDS} FROM orders WHERE reference = $reference`;
const MERCHANT_BY_REFERENCE = `${BY_REFERENCE} AND merchant_id = $merchantId`;

/**
 * One order by reference (with `merchantId`, only that merchant's), as findOrderRows reads it, in
 * a named prepared statement: the single-order read runs at a high rate, and Sequelize's building
 * of the 40-column SELECT and PostgreSQL's parsing and planning of it cost more than running it.
 */
export async function findOrderRowByReference(
  deps: Pick<Deps, 'db'>,
  where: { reference: string; merchantId?: string },
): Promise<OrderView | undefined> {
  const rows = where.merchantId
    ? await deps.db.prepared.run<Row>(MERCHANT_BY_REFERENCE, where)
    : await deps.db.prepared.run<Row>(BY_REFERENCE, { reference: where.reference });
  return asOrderViews(rows)[0];
}

const MERCHANT_PAGE = `SELECT ${ORDER_FIELDS} FROM orders WHERE merchant_id = $merchantId
  ORDER BY id DESC LIMIT $limit OFFSET $offset`;
const MERCHANT_PAGE_BEFORE = `SELECT ${ORDER_FIELDS} FROM orders WHERE merchant_id = $merchantId AND id < $before
  ORDER BY id DESC LIMIT $limit`;

/**
 * A merchant's orders newest first, unfiltered (the list's common request: the dashboard's first
 * view, an integration polling), by offset or before an id, in a named prepared statement as one
 * order is read: as findOrderRows reads them, without building and planning the SELECT each time.
 */
export async function merchantOrderRows(
  deps: Pick<Deps, 'db'>,
  page: { merchantId: string; limit: number; offset?: number; before?: string | null },
): Promise<OrderView[]> {
  const { merchantId, limit } = page;
  const rows = page.before
    ? await deps.db.prepared.run<Row>(MERCHANT_PAGE_BEFORE, { merchantId, limit, before: page.before })
    : await deps.db.prepared.run<Row>(MERCHANT_PAGE, { merchantId, limit, offset: page.offset ?? 0 });
  return asOrderViews(rows);
}
