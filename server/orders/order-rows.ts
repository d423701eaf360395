import type { FindOptions, InferAttributes } from 'sequelize';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import type { OrderView } from './present-order';

type Row = Record<string, unknown>;
const BIGINTS = ['amountUnits', 'amountReceivedUnits', 'amountRefundedUnits', 'quoteUnits'] as const;

/**
 * Orders read as plain rows, not model instances: on the read paths a model per row cost more than
 * the query (profiled on the 20-order list page). The values are the model's own types.
 */
export async function findOrderRows(
  deps: Pick<Deps, 'db'>,
  options: FindOptions<InferAttributes<Order>>,
): Promise<OrderView[]> {
  const rows = (await deps.db.models.Order.findAll({ ...options, raw: true })) as unknown as Row[];
  for (const row of rows)
    for (const name of BIGINTS) {
      const value = row[name];
      if (value !== null && value !== undefined) row[name] = BigInt(value as string);
    }
  return rows as unknown as OrderView[];
}
