import type { z } from 'zod';
import type { ZUpdateProfileBody } from '../../contract';
import type { Merchant } from '../db/models';
import type { Deps } from '../deps';
import { checkWebhookUrl } from '../events/check-webhook-url';
import { presentProfile } from './present-profile';

export async function updateProfile(
  deps: Pick<Deps, 'secrets' | 'clock' | 'config' | 'cache'>,
  merchant: Merchant,
  changes: z.infer<typeof ZUpdateProfileBody>,
) {
  // The merchant-level webhook gets the same save-time check as an order's own webhookUrl.
  if (changes.webhook_url) await checkWebhookUrl(deps, changes.webhook_url, 'body.webhook_url');
  if (changes.full_name !== undefined) merchant.fullName = changes.full_name;
  if (changes.phone !== undefined) merchant.phone = changes.phone;
  if (changes.webhook_url !== undefined) merchant.webhookUrl = changes.webhook_url;
  if (changes.messenger_chat_id !== undefined) merchant.messengerChatId = changes.messenger_chat_id;
  if (changes.messenger_bot_token !== undefined)
    merchant.messengerBotTokenSealed =
      changes.messenger_bot_token === null ? null : deps.secrets.seal(changes.messenger_bot_token);
  if (changes.underpayment_tolerance_bps !== undefined)
    merchant.underpaymentToleranceBps = changes.underpayment_tolerance_bps;
  merchant.updatedAt = deps.clock();
  await merchant.save();
  deps.cache.merchants.forget(merchant.id);
  return presentProfile(merchant);
}
