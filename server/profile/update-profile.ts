import type { z } from 'zod';
import type { ZUpdateProfileBody } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { checkWebhookUrl } from '../events/check-webhook-url';
import { writeMerchant } from '../merchants/write-merchant';
import { presentProfile } from './present-profile';

/** Writes only the fields the request names; the merchant as authenticated is never changed in place. */
export async function updateProfile(
  deps: Pick<Deps, 'db' | 'secrets' | 'clock' | 'config' | 'cache'>,
  merchant: MerchantRow,
  changes: z.infer<typeof ZUpdateProfileBody>,
) {
  // The merchant-level webhook gets the same save-time check as an order's own webhookUrl.
  if (changes.webhook_url) await checkWebhookUrl(deps, changes.webhook_url, 'body.webhook_url');
  const values: Partial<MerchantRow> = { updatedAt: deps.clock() };
  if (changes.full_name !== undefined) values.fullName = changes.full_name;
  if (changes.phone !== undefined) values.phone = changes.phone;
  if (changes.webhook_url !== undefined) values.webhookUrl = changes.webhook_url;
  if (changes.messenger_chat_id !== undefined) values.messengerChatId = changes.messenger_chat_id;
  if (changes.messenger_bot_token !== undefined)
    values.messengerBotTokenSealed =
      changes.messenger_bot_token === null ? null : deps.secrets.seal(changes.messenger_bot_token);
  if (changes.underpayment_tolerance_bps !== undefined)
    values.underpaymentToleranceBps = changes.underpayment_tolerance_bps;
  // Events emitted from now on are rendered at it; stored events keep their body.
  if (changes.webhook_api_version !== undefined) values.webhookApiVersion = changes.webhook_api_version;
  return presentProfile(await writeMerchant(deps, merchant.id, values));
}
