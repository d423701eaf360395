import type { Merchant, Order } from '../db/models';
import type { DeliveryTarget } from './append-events';

/** Where an event goes: its subject's own settings (an order's, a subscription's), else the merchant's. */
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
