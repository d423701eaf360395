import type { Deps } from '../deps';
import { findOrder } from '../orders/find-order';

/** An order by its public reference, with the merchant's display name. */
export async function findPublicOrder(deps: Pick<Deps, 'db'>, reference: string) {
  const order = await findOrder(deps.db.models, { reference });
  const merchant = await deps.db.models.Merchant.findByPk(order.merchantId, { attributes: ['fullName'] });
  return { order, merchantName: merchant?.fullName ?? null };
}
