import type { Transaction } from 'sequelize';
import { versionKnowsEventType, type EventType } from '../../contract';
import type { Merchant } from '../db/models';
import type { Deps } from '../deps';
import { appendEvent, eventApiVersion, eventBody, newEventId } from './append-events';
import { deliveryTargets } from './delivery-targets';

/** What an event needs of its merchant: the id, the API version and where its events go. */
export type EventMerchant = Pick<
  Merchant,
  'id' | 'webhookApiVersion' | 'webhookUrl' | 'messengerChatId' | 'messengerBotTokenSealed'
>;

/**
 * Writes one of the merchant's events and its delivery tasks in the caller's transaction, so the
 * event exists exactly when the change it tells of does. It is rendered at the merchant's API
 * version; a type that version does not know is not written (null): merchants are sent only the
 * event types their version knows, and `data` is then not even built. The tasks go to the
 * subject's own webhook URL and messenger chat (an order's, a subscription's), else the merchant's.
 */
export async function emitMerchantEvent(
  deps: Pick<Deps, 'db'>,
  transaction: Transaction,
  merchant: EventMerchant,
  event: {
    type: EventType;
    at: Date;
    /** The order it is about (orders.id); null for none. */
    orderId: string | null;
    /** The subject's own delivery settings; absent: the merchant's. */
    settings?: { webhookUrl: string | null; messengerChatId: string | null };
    /** What it carries (the subject as it is now, who acted). */
    data: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  },
): Promise<string | null> {
  const version = eventApiVersion(merchant);
  if (!versionKnowsEventType(version, event.type)) return null;
  const id = newEventId();
  await appendEvent(deps.db, transaction, {
    id,
    orderId: event.orderId,
    merchantId: merchant.id,
    type: event.type,
    body: eventBody(id, event.type, event.at, await event.data(), version),
    at: event.at,
    targets: deliveryTargets(event.settings ?? { webhookUrl: null, messengerChatId: null }, merchant),
  });
  return id;
}
