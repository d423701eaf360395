import { randomUUID } from 'node:crypto';
import {
  MAX_API_KEYS,
  scopesBeyond,
  type CreatedApiKey,
  type CreateApiKeyBody,
  type Permission,
} from '../../contract';
import { hashApiKeySecret, newApiKeySecret } from '../auth/api-key-secret';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { presentApiKey } from './present-api-key';

/**
 * A new key: its secret is returned here and nowhere else; the database keeps the hash. The
 * merchant row is locked (FOR NO KEY UPDATE, which order inserts referencing it do not wait for)
 * so that concurrent creations cannot together pass the limit. A member gives a key only scopes
 * within its own permissions (403 naming the first beyond them); the key is the member's.
 */
export async function createApiKey(
  deps: Pick<Deps, 'db' | 'clock'>,
  maker: { merchantId: string; memberId: string; permissions: ReadonlySet<Permission> },
  body: CreateApiKeyBody,
): Promise<CreatedApiKey> {
  const beyond = scopesBeyond(maker.permissions, body.scopes);
  if (beyond.length > 0)
    throw ApiError.forbidden(
      `A key acts within its maker's permissions: your role may not give ${beyond.join(', ')}`,
    );
  const { merchantId } = maker;
  const secret = newApiKeySecret();
  const { ApiKey } = deps.db.models;
  const key = await deps.db.sequelize.transaction(async (transaction) => {
    await deps.db.sequelize.query('SELECT 1 FROM merchants WHERE id = $id FOR NO KEY UPDATE', {
      bind: { id: merchantId },
      transaction,
    });
    const inUse = await ApiKey.count({ where: { merchantId, revokedAt: null }, transaction });
    if (inUse >= MAX_API_KEYS)
      throw ApiError.conflict(`At most ${MAX_API_KEYS} API keys may be in use: revoke one first`);
    return ApiKey.create(
      {
        id: randomUUID(),
        merchantId,
        createdBy: maker.memberId,
        name: body.name,
        scopes: body.scopes,
        secretHash: hashApiKeySecret(secret),
        last4: secret.slice(-4),
        createdAt: deps.clock(),
      },
      { transaction },
    );
  });
  return { ...presentApiKey(key.get({ plain: true })), secret };
}
