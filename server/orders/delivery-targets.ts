import type { Merchant, Order } from '../db/models';
import type { DeliveryTarget } from '../events/append-events';

/** Where an order's events go: the order's own settings, else the merchant's. */
export function deliveryTargets(
  order: Pick<Order, 'webhookUrl' | 'messengerChatId'>,
  merchant: Pick<Merchant, 'webhookUrl' | 'messengerChatId' | 'messengerBotTokenSealed'>,
): DeliveryTarget[] {
  const webhookUrl = order.webhookUrl ?? merchant.webhookUrl;
  const chatId = order.messengerChatId ?? merchant.messengerChatId;
  return [
    ...(webhookUrl ? [{ channel: 'webhook' as const, target: webhookUrl }] : []),
    ...(chatId && merchant.messengerBotTokenSealed
      ? [{ channel: 'messenger' as const, target: chatId }]
      : []),
  ];
}
