import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import {
  eventOrderOf,
  type Order,
  type PayoutEventType,
  type SubscriptionEventType,
  type MemberEventType,
  type UnattributedPayment,
  type WebhookEventBody,
} from '../../../contract';
import { transferKey } from './claims';
import type { OrdersPage } from './queries';
import { isFirstOrdersPage, keys } from './query-keys';

/**
 * What the merchant's live events change in the dashboard's cache, by event type: each event
 * refreshes the parts of its order it changed, not everything. An order's webhook and messenger
 * deliveries are not here: each attempt is an entry of the order's timeline, and the order page
 * reads its deliveries again when the timeline shows a new one.
 */
export function keysChangedBy(event: WebhookEventBody): QueryKey[] {
  switch (event.type) {
    case 'ping':
      return [keys.recentDeliveries];
    // The account's people: the Members page reads them again.
    case 'member.invited':
    case 'member.joined':
    case 'member.role_changed':
    case 'member.removed':
      return [keys.members];
    // A subscription's own events: it, the lists it shows in, and its orders (a new one, a status).
    case 'subscription.created':
    case 'subscription.order_created':
    case 'subscription.active':
    case 'subscription.past_due':
    case 'subscription.paused':
    case 'subscription.resumed':
    case 'subscription.canceled': {
      const id = event.data.subscription.id;
      return [keys.subscription(id), keys.subscriptionOrders(id), keys.subscriptionLists];
    }
    // A payout's events (an item's too): that payout with its items, and the lists it shows in.
    case 'payout.created':
    case 'payout.approved':
    case 'payout.completed':
    case 'payout.partial':
    case 'payout.failed':
    case 'payout.item_confirmed':
    case 'payout.item_failed':
      return [keys.payout(event.data.payout.id), keys.payoutLists];
    default: {
      // An order's event also changes the orders table of its subscription, when it has one.
      const subscriptionId = event.data.order.subscriptionId;
      return [
        ...orderKeysChangedBy(event),
        ...(subscriptionId ? [keys.subscriptionOrders(subscriptionId)] : []),
      ];
    }
  }
}

type OrderOrRefundEvent = Exclude<
  WebhookEventBody,
  { type: 'ping' | SubscriptionEventType | MemberEventType | PayoutEventType }
>;

function orderKeysChangedBy(event: OrderOrRefundEvent): QueryKey[] {
  const reference = event.data.order.reference;
  const order = keys.order(reference);
  const audit = keys.audit(reference);
  switch (event.type) {
    case 'order.created':
    case 'order.expired':
      return [order, audit, keys.summaries];
    case 'order.confirming':
    case 'order.payment_rejected':
      return [order, audit];
    case 'order.paid':
    case 'order.underpaid':
      return [order, keys.payments(reference), audit, keys.summaries];
    case 'order.payment_claimed':
      return [audit];
    case 'refund.created':
    case 'refund.succeeded':
    case 'refund.failed':
      return [order, keys.refunds(reference), audit];
    default:
      return event satisfies never;
  }
}

/**
 * Applies a batch of events (oldest first) to the cache: each changed key is read again once,
 * however many events of the batch changed it. The rows of the orders lists take the order each
 * event carries (no request); a new order refreshes the lists' first pages, where it shows up; a
 * credited transfer that the unattributed list shows refreshes that list, which it leaves.
 */
export function applyEvents(client: QueryClient, events: WebhookEventBody[]) {
  const changed = new Map<string, QueryKey>();
  const change = (key: QueryKey) => changed.set(JSON.stringify(key), key);
  const orders: EventOrder[] = [];
  let created = false;
  for (const event of events) {
    keysChangedBy(event).forEach(change);
    const order = eventOrderOf(event);
    if (order) orders.push(order);
    if (event.type === 'order.created') created = true;
    const payment = 'payment' in event.data ? event.data.payment : undefined;
    if (payment && unattributedShows(client, payment)) change(keys.unattributed);
  }
  patchOrderLists(client, orders);
  for (const queryKey of changed.values()) void client.invalidateQueries({ queryKey });
  if (created)
    void client.invalidateQueries({
      queryKey: keys.orderLists,
      predicate: (query) => isFirstOrdersPage(query.queryKey),
    });
}

/** Every row of the cached orders lists that an event carries a newer state of takes it. */
/** The order as an event carries it (an event at an earlier API version leaves some fields out). */
type EventOrder = Extract<WebhookEventBody, { data: { order: unknown } }>['data']['order'];

function patchOrderLists(client: QueryClient, orders: EventOrder[]) {
  const newest = new Map<string, EventOrder>();
  for (const order of orders) {
    const known = newest.get(order.reference);
    if (!known || order.updatedAt >= known.updatedAt) newest.set(order.reference, order);
  }
  if (newest.size === 0) return;
  // An updater's undefined leaves a page as it was.
  client.setQueriesData<OrdersPage>({ queryKey: keys.orderLists }, (page) => {
    if (!page) return undefined;
    let patched = false;
    const items = page.items.map((row) => {
      const next = newest.get(row.reference);
      if (!next || next.updatedAt < row.updatedAt) return row;
      patched = true;
      // The row keeps what the event's version leaves out.
      return { ...row, ...next } as Order;
    });
    return patched ? { ...page, items } : undefined;
  });
}

function unattributedShows(client: QueryClient, transfer: { network: string; txId: string }) {
  const list = client.getQueryData<InfiniteData<{ items: UnattributedPayment[] }>>(keys.unattributed);
  const wanted = transferKey(transfer);
  return list?.pages.some((page) => page.items.some((item) => transferKey(item) === wanted)) ?? false;
}
