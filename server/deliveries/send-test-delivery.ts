import { EVENT_TYPE_SINCE, versionKnowsEventType } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { eventApiVersion, eventBody, newEventId } from '../events/append-events';
import { deliverOnce } from '../events/deliver-once';
import { presentMessengerDelivery, presentWebhookDelivery } from './present-delivery';

const PING_MESSAGES = {
  webhook: 'A test delivery from stablepay: when its signature verifies, this endpoint is ready for events.',
  messenger: "A test message from stablepay: this chat receives the merchant's order and refund events.",
} as const;

/** Where a test goes, or why it cannot go (409): the profile's settings, as for an order event. */
function targetOf(merchant: MerchantRow, channel: 'webhook' | 'messenger'): string {
  if (channel === 'webhook') {
    if (!merchant.webhookUrl)
      throw ApiError.conflict('No webhook URL: set webhook_url with PATCH /users/me first');
    if (!merchant.webhookSecretSealed)
      throw ApiError.conflict(
        'No webhook signing secret: create one with POST /users/me/webhook-secret first',
      );
    return merchant.webhookUrl;
  }
  if (!merchant.messengerChatId)
    throw ApiError.conflict('No messenger chat: set messenger_chat_id with PATCH /users/me first');
  if (!merchant.messengerBotTokenSealed)
    throw ApiError.conflict('No messenger bot token: set messenger_bot_token with PATCH /users/me first');
  return merchant.messengerChatId;
}

/**
 * A `ping` event, sent now on one channel to the profile's target and recorded like any delivery
 * (an event about no order, and its attempt; no audit entry, which is an order's). Refused (409)
 * for a merchant whose API version knows no `ping`: it is sent only the event types it knows.
 */
async function sendPing(deps: Deps, merchant: MerchantRow, channel: 'webhook' | 'messenger') {
  const target = targetOf(merchant, channel);
  const version = eventApiVersion(merchant);
  if (!versionKnowsEventType(version, 'ping'))
    throw ApiError.conflict(
      `API version ${version} has no ping event: move webhook_api_version on to ${EVENT_TYPE_SINCE.ping} or later ` +
        `(PATCH /users/me {"webhook_api_version": "${EVENT_TYPE_SINCE.ping}"}) once your receiver ignores event types it does not know`,
    );
  const id = newEventId();
  const at = deps.clock();
  return deliverOnce(
    deps,
    {
      id,
      orderId: null,
      merchantId: merchant.id,
      type: 'ping',
      body: eventBody(id, 'ping', at, { message: PING_MESSAGES[channel] }, version),
      at,
    },
    { channel, target },
  );
}

/** POST /users/me/webhook-test: a signed `ping` to the webhook URL now; the attempt, failed or not. */
export async function sendTestWebhook(deps: Deps, merchant: MerchantRow) {
  const { recordId } = await sendPing(deps, merchant, 'webhook');
  return presentWebhookDelivery(
    await deps.db.models.WebhookDelivery.findByPk(recordId, { rejectOnEmpty: true }),
  );
}

/** POST /users/me/messenger-test: a `ping` message to the messenger chat now; the attempt. */
export async function sendTestMessage(deps: Deps, merchant: MerchantRow) {
  const { recordId } = await sendPing(deps, merchant, 'messenger');
  return presentMessengerDelivery(
    await deps.db.models.MessengerDelivery.findByPk(recordId, { rejectOnEmpty: true }),
  );
}
