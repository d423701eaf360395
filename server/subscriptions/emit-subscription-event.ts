import type { Transaction } from 'sequelize';
import type { EventType, Order as OrderBody } from '../../contract';
import type { Subscription } from '../db/models';
import type { Deps } from '../deps';
import { eventActorFields, type Actor } from '../events/actor';
import { emitMerchantEvent } from '../events/emit-merchant-event';
import { presentSubscription } from './present-subscription';

/** What a subscription event carries beside the subscription: the order it is about, with its row id. */
export type SubscriptionEventExtra = { order?: { id: string; body: OrderBody } };

/**
 * Writes a subscription event (the subscription as it is now, and the order it is about) and its
 * delivery tasks in the caller's transaction: to the subscription's webhook URL, else the
 * merchant's, and the merchant's messenger chat. Merchants pinned to a version before
 * subscriptions existed are sent none (null).
 */
export async function emitSubscriptionEvent(
  deps: Pick<Deps, 'db' | 'config' | 'secrets' | 'cache'>,
  transaction: Transaction,
  subscription: Subscription,
  type: EventType,
  at: Date,
  extra: SubscriptionEventExtra = {},
  actor?: Actor,
): Promise<string | null> {
  // The cached row, as order creation renders its event: its version and webhook settings.
  const merchant = await deps.cache.merchants.get(subscription.merchantId);
  if (!merchant) throw new Error(`subscription ${subscription.id} has no merchant`);
  return emitMerchantEvent(deps, transaction, merchant, {
    type,
    at,
    orderId: extra.order?.id ?? null,
    settings: { webhookUrl: subscription.webhookUrl, messengerChatId: null },
    data: () => ({
      subscription: presentSubscription(deps, subscription),
      ...(extra.order ? { order: extra.order.body } : {}),
      ...eventActorFields(actor),
    }),
  });
}
