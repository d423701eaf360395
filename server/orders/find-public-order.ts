import type { Deps } from '../deps';
import { readOrder } from './find-order';

/** An order by its public reference, with the merchant's display name (as the instance remembers it). */
export async function findPublicOrder(deps: Pick<Deps, 'db' | 'cache'>, reference: string) {
  const order = await readOrder(deps, { reference });
  const merchant = await deps.cache.merchants.get(order.merchantId);
  return { order, merchantName: merchant?.fullName ?? null };
}
