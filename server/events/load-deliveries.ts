import type { Deps } from '../deps';
import type { Delivery, DeliveryEvent, MerchantSettings } from './delivery';

/** One row per task: the task, its event's columns, the merchant's settings, the order's. */
type Row = Delivery['task'] &
  Omit<DeliveryEvent, 'id'> &
  MerchantSettings & {
    eventId: string | null;
    merchantFound: boolean;
    orderFound: boolean;
    orderWebhookUrl: string | null;
    orderMessengerChatId: string | null;
  };

/**
 * The one loader of deliveries: the tasks `ids` with their events and the settings their sends
 * read (the merchant's, and the order's own destinations), in one statement for a whole lease or
 * for one task sent now. A task that no longer exists is left out.
 */
export async function loadDeliveries(deps: Pick<Deps, 'db'>, ids: string[]): Promise<Map<string, Delivery>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.db.prepared.run<Row>(
    `SELECT d.id, d.channel, d.target, d.attempts, d.locked_by AS "lockedBy",
            e.id AS "eventId", e.order_id AS "orderId", e.merchant_id AS "merchantId", e.type, e.body,
            m.id IS NOT NULL AS "merchantFound", m.webhook_url AS "webhookUrl",
            m.messenger_chat_id AS "messengerChatId", m.messenger_bot_token_sealed AS "messengerBotTokenSealed",
            m.webhook_secret_sealed AS "webhookSecretSealed",
            m.previous_webhook_secret_sealed AS "previousWebhookSecretSealed",
            m.previous_webhook_secret_expires_at AS "previousWebhookSecretExpiresAt",
            o.id IS NOT NULL AS "orderFound", o.webhook_url AS "orderWebhookUrl",
            o.messenger_chat_id AS "orderMessengerChatId"
       FROM event_deliveries d
       LEFT JOIN events e ON e.id = d.event_id
       LEFT JOIN merchants m ON m.id = e.merchant_id
       LEFT JOIN orders o ON o.id = e.order_id
      WHERE d.id = ANY(CAST($ids AS bigint[]))`,
    { ids },
  );
  return new Map(rows.map((row) => [String(row.id), delivery(row)]));
}

function delivery(row: Row): Delivery {
  const { id, channel, target, attempts, lockedBy, eventId, orderId, merchantId, type, body } = row;
  return {
    task: { id: String(id), channel, target, attempts, lockedBy },
    event: eventId === null ? null : { id: eventId, orderId, merchantId, type, body },
    merchant: row.merchantFound
      ? {
          webhookUrl: row.webhookUrl,
          messengerChatId: row.messengerChatId,
          messengerBotTokenSealed: row.messengerBotTokenSealed,
          webhookSecretSealed: row.webhookSecretSealed,
          previousWebhookSecretSealed: row.previousWebhookSecretSealed,
          previousWebhookSecretExpiresAt: row.previousWebhookSecretExpiresAt,
        }
      : null,
    order: row.orderFound
      ? { webhookUrl: row.orderWebhookUrl, messengerChatId: row.orderMessengerChatId }
      : null,
  };
}
