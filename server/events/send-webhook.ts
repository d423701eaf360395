import type { Deps } from '../deps';
import { failure, settingsPlace, type MerchantSettings, type Outcome, type Sendable } from './delivery';
import { postJson } from './http-post';
import { signatureHeader } from './webhook-signature';

/**
 * The webhook sender: POSTs the event's stored body, signed, to the webhook URL in force now (the
 * order's, else the profile's). Held, spending no attempt, while the merchant has no signing secret.
 */
export async function sendWebhook(
  deps: Pick<Deps, 'config' | 'secrets' | 'clock'>,
  { event, merchant, order, attempt }: Sendable,
): Promise<Outcome> {
  const url = order?.webhookUrl ?? merchant.webhookUrl;
  if (!url) return failure(`the webhook URL was removed from ${settingsPlace(order)}`, event.body, true);
  const now = deps.clock();
  const secrets = activeSecrets(deps, merchant, now);
  if (secrets.length === 0)
    return {
      ...failure('no webhook signing secret yet: create one with POST /users/me/webhook-secret', event.body),
      deferred: true,
    };
  const timestamp = Math.floor(now.getTime() / 1000);
  const result = await postJson(url, event.body, {
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    guard: !deps.config.webhookAllowPrivate,
    headers: {
      'X-Webhook-Id': event.id,
      'X-Webhook-Timestamp': String(timestamp),
      'X-Webhook-Signature': signatureHeader(event.body, secrets, timestamp),
      'X-Webhook-Attempt': String(attempt),
    },
  });
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  return {
    ...result,
    ok,
    error: result.error ?? (ok ? null : `HTTP ${result.status}`),
    target: url,
    requestBody: event.body,
  };
}

/** The current secret, and the previous one for 24 h after a rotation. */
function activeSecrets(deps: Pick<Deps, 'secrets'>, merchant: MerchantSettings, now: Date): string[] {
  const secrets: string[] = [];
  if (merchant.webhookSecretSealed) secrets.push(deps.secrets.open(merchant.webhookSecretSealed));
  if (
    merchant.previousWebhookSecretSealed &&
    merchant.previousWebhookSecretExpiresAt &&
    merchant.previousWebhookSecretExpiresAt > now
  )
    secrets.push(deps.secrets.open(merchant.previousWebhookSecretSealed));
  return secrets;
}
