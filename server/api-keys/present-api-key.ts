import type { ApiKey as ApiKeyBody } from '../../contract';
import type { ApiKeyRow } from '../db/caches';

/** An API key as the API shows it: never its secret or hash. */
export const presentApiKey = (key: ApiKeyRow): ApiKeyBody => ({
  id: key.id,
  name: key.name,
  scopes: [...key.scopes],
  last4: key.last4,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
});
