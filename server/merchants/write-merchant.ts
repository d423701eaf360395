import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/** Writes `values` to the merchant's row and drops it from the cache (every instance: the change feed); the row as written. */
export async function writeMerchant(
  deps: Pick<Deps, 'db' | 'cache'>,
  merchantId: string,
  values: Partial<MerchantRow>,
): Promise<MerchantRow> {
  const [, updated] = await deps.db.models.Merchant.update(values, {
    where: { id: merchantId },
    returning: true,
  });
  deps.cache.merchants.forget(merchantId);
  const row = updated[0];
  if (!row) throw ApiError.unauthenticated();
  return row.get({ plain: true });
}
