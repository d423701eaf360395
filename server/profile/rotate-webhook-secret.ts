import { randomBytes } from 'node:crypto';
import type { Merchant } from '../db/models';
import type { Deps } from '../deps';

export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** A new signing secret; the old one keeps signing (a second v1=) for 24 h so receivers can switch. */
export async function rotateWebhookSecret(deps: Pick<Deps, 'secrets' | 'clock'>, merchant: Merchant) {
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const now = deps.clock();
  const previousExpiresAt = merchant.webhookSecretSealed
    ? new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS)
    : null;
  merchant.previousWebhookSecretSealed = merchant.webhookSecretSealed;
  merchant.previousWebhookSecretExpiresAt = previousExpiresAt;
  merchant.webhookSecretSealed = deps.secrets.seal(secret);
  merchant.updatedAt = now;
  await merchant.save();
  return { webhook_secret: secret, previous_secret_expires_at: previousExpiresAt?.toISOString() ?? null };
}
