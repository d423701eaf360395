import { LATEST_API_VERSION } from '../../contract';
import type { Merchant } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { newSecretToken } from '../lib/secret-token';

export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * A new signing secret; the old one keeps signing (a second v1=) for 24 h so receivers can switch.
 * The first secret pins the merchant's event API version to the latest (unless it chose one).
 * The merchant row is locked for the swap: two concurrent rotations must not both keep the same
 * "previous" secret, which would leave the first caller holding a secret that no longer signs.
 */
export async function rotateWebhookSecret(
  deps: Pick<Deps, 'db' | 'secrets' | 'clock' | 'cache'>,
  merchant: Pick<Merchant, 'id'>,
) {
  const secret = `whsec_${newSecretToken()}`;
  const sealed = deps.secrets.seal(secret);
  const rotated = await deps.db.sequelize.transaction(async (transaction) => {
    const row = await deps.db.models.Merchant.findByPk(merchant.id, {
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!row) throw ApiError.unauthenticated();
    const now = deps.clock();
    const previousExpiresAt = row.webhookSecretSealed
      ? new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS)
      : null;
    row.previousWebhookSecretSealed = row.webhookSecretSealed;
    row.previousWebhookSecretExpiresAt = previousExpiresAt;
    row.webhookSecretSealed = sealed;
    if (row.webhookApiVersion === null) row.webhookApiVersion = LATEST_API_VERSION;
    row.updatedAt = now;
    await row.save({ transaction });
    return { webhook_secret: secret, previous_secret_expires_at: previousExpiresAt?.toISOString() ?? null };
  });
  deps.cache.merchants.forget(merchant.id);
  return rotated;
}
