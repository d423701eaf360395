import type { z } from 'zod';
import { isApiVersion, type ZProfile } from '../../contract';
import type { MerchantRow } from '../db/caches';

export function presentProfile(m: MerchantRow): z.infer<typeof ZProfile> {
  return {
    id: m.id,
    email: m.email,
    full_name: m.fullName,
    phone: m.phone,
    webhook_url: m.webhookUrl,
    messenger_chat_id: m.messengerChatId,
    messenger_bot_token_set: m.messengerBotTokenSealed !== null,
    webhook_secret_set: m.webhookSecretSealed !== null,
    webhook_api_version: isApiVersion(m.webhookApiVersion) ? m.webhookApiVersion : null,
    underpayment_tolerance_bps: m.underpaymentToleranceBps ?? null,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}
