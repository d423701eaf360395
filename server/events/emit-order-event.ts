import type { Transaction } from 'sequelize';
import type { EventType, Payment, Refund } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Merchant, Order } from '../db/models';
import type { Deps } from '../deps';
import { wakeJob } from '../jobs/wake-up';
import { randomBytesPooled } from '../lib/random-pool';
import { presentOrder } from '../orders/present-order';

/** Where an order's events go: the order's own settings, else the merchant's. */
export function deliveryTargets(
  order: Pick<Order, 'webhookUrl' | 'messengerChatId'>,
  merchant: Pick<Merchant, 'webhookUrl' | 'messengerChatId' | 'messengerBotTokenSealed'>,
) {
  const webhookUrl = order.webhookUrl ?? merchant.webhookUrl;
  const chatId = order.messengerChatId ?? merchant.messengerChatId;
  return [
    ...(webhookUrl ? [{ channel: 'webhook' as const, target: webhookUrl }] : []),
    ...(chatId && merchant.messengerBotTokenSealed
      ? [{ channel: 'messenger' as const, target: chatId }]
      : []),
  ];
}

/** The stored (and delivered) body of an event: the webhook payload. */
export const eventBody = (id: string, type: EventType, at: Date, data: Record<string, unknown>) =>
  JSON.stringify({ id, type, createdAt: at.toISOString(), data });

/** A new event's id. */
export const newEventId = () => `evt_${randomBytesPooled(16).toString('hex')}`;

/** What an event carries beside the order: the transfer or refund that caused it. */
export type EventExtra = { payment?: Payment; refund?: Refund };

/**
 * Writes an order event and its delivery tasks inside the caller's transaction: the event exists
 * exactly when the change that caused it does. Targets are fixed now (the order's own settings,
 * else the merchant's); the bot token is read at send time and never copied.
 */
export async function emitOrderEvent(
  deps: Pick<Deps, 'db' | 'config' | 'chains'>,
  transaction: Transaction,
  order: Order,
  type: EventType,
  at: Date,
  /** The order's merchant, when the caller already holds it (saves a read on the hot path). */
  knownMerchant?: MerchantRow,
  extra: EventExtra = {},
): Promise<string> {
  const { Merchant: Merchants, Event, EventDelivery } = deps.db.models;
  const merchant = knownMerchant ?? (await Merchants.findByPk(order.merchantId, { transaction }));
  if (!merchant) throw new Error(`order ${order.reference} has no merchant`);
  const id = newEventId();
  const body = eventBody(id, type, at, { order: presentOrder(deps, order, merchant.fullName), ...extra });
  await Event.create(
    { id, orderId: order.id, merchantId: merchant.id, type, body, createdAt: at },
    { transaction },
  );

  const tasks = deliveryTargets(order, merchant);
  for (const task of tasks)
    await EventDelivery.create(
      { eventId: id, ...task, nextAttemptAt: at, createdAt: at, updatedAt: at },
      { transaction },
    );
  // Senders in every instance start on it as soon as this commits, not at their next schedule.
  if (tasks.length > 0) await wakeJob(deps.db.sequelize, transaction, 'deliver-events');
  return id;
}
