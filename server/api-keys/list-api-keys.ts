import type { ApiKey as ApiKeyBody } from '../../contract';
import type { ApiKeyRow } from '../db/caches';
import type { Deps } from '../deps';
import { presentApiKey } from './present-api-key';
import { OLDEST_FIRST } from '../db/order-by';

/** The merchant's keys in use, oldest first. */
export async function listApiKeys(deps: Pick<Deps, 'db'>, merchantId: string): Promise<ApiKeyBody[]> {
  const rows = (await deps.db.models.ApiKey.findAll({
    where: { merchantId, revokedAt: null },
    order: OLDEST_FIRST,
    raw: true,
  })) as ApiKeyRow[];
  return rows.map(presentApiKey);
}
