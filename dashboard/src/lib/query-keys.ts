import type { QueryKey } from '@tanstack/react-query';
import type { api } from '../api';

/** The query of GET /users/me/orders (filters and cursor) as the Orders page asks it. */
export type OrdersQuery = NonNullable<Parameters<typeof api.orders.list>[0]>['query'];
/** The filters of GET /subscriptions as the Subscriptions page asks them (the cursor is the page's). */
export type SubscriptionsQuery = Omit<
  NonNullable<NonNullable<Parameters<typeof api.subscriptions.list>[0]>['query']>,
  'cursor' | 'per_page'
>;
/** The days the Overview sums, in the merchant's time zone. */
export type SummaryRange = { from: string; to: string; timeZone: string };

/**
 * The query keys: one per resource the dashboard reads. Each part of an order has a key of its own
 * under ['order', reference], so that an event or a write refreshes the parts it changed and no
 * other; every page of the orders list sits under ['orders'].
 */
export const keys = {
  order: (reference: string) => ['order', reference, 'order'] as const,
  payments: (reference: string) => ['order', reference, 'payments'] as const,
  refunds: (reference: string) => ['order', reference, 'refunds'] as const,
  audit: (reference: string) => ['order', reference, 'audit'] as const,
  webhookDeliveries: (reference: string) => ['order', reference, 'webhook-deliveries'] as const,
  messengerDeliveries: (reference: string) => ['order', reference, 'messenger-deliveries'] as const,
  orderLists: ['orders'] as const,
  orderList: (query: OrdersQuery) => ['orders', query] as const,
  summaries: ['summary'] as const,
  summary: (range: SummaryRange) => ['summary', range] as const,
  wallets: ['wallets'] as const,
  profile: ['profile'] as const,
  apiKeys: ['api-keys'] as const,
  x402GasKeys: ['x402-gas-keys'] as const,
  unattributed: ['unattributed'] as const,
  recentDeliveries: ['recent-deliveries'] as const,
  networks: ['networks'] as const,
  /** One subscription and its orders, under ['subscription', id]; every list under ['subscriptions']. */
  subscription: (id: string) => ['subscription', id, 'subscription'] as const,
  subscriptionOrders: (id: string) => ['subscription', id, 'orders'] as const,
  subscriptionLists: ['subscriptions'] as const,
  /** The account's members and invitations (the Members page). */
  members: ['members'] as const,
  subscriptionList: (query: SubscriptionsQuery) => ['subscriptions', query] as const,
  /** One payout (with its items); every page of the payouts list under ['payouts']. */
  payout: (id: string) => ['payout', id] as const,
  payoutLists: ['payouts'] as const,
  payoutList: (status: string) => ['payouts', status] as const,
};

/** Whether a key is the first page of an orders list, where a new order shows up (newest first). */
export const isFirstOrdersPage = (key: QueryKey) =>
  key[0] === keys.orderLists[0] && (key[1] as OrdersQuery | undefined)?.cursor === '';

/**
 * What each of the dashboard's writes changes, by key: after it succeeds, exactly these are read
 * again (the events that follow refresh what the service changes later, as a payment verified).
 */
export const changedByWrite = {
  createOrder: () => [keys.orderLists, keys.summaries],
  /** A subscription created (with its first order, unless in a trial). */
  createSubscription: () => [keys.subscriptionLists, keys.orderLists, keys.summaries],
  /** Cancelled, paused or resumed: it, the lists, and its orders (resuming may make one). */
  subscription: (id: string) => [keys.subscription(id), keys.subscriptionOrders(id), keys.subscriptionLists],
  /** A refund created or approved: the refund, what the order can still refund, the timeline. */
  refund: (reference: string) => [keys.refunds(reference), keys.order(reference), keys.audit(reference)],
  /**
   * A transfer attributed to an order: the order (now CONFIRMING) and its timeline. The transfer
   * leaves the unattributed list once the chain confirms it, which an event says.
   */
  attribute: (reference: string) => [keys.order(reference), keys.audit(reference)],
  /**
   * A sandbox payment sent (a reported one makes the order CONFIRMING at once); its events refresh
   * what the chain changes after.
   */
  sandboxPay: (reference: string) => [keys.order(reference), keys.payments(reference), keys.audit(reference)],
  redeliver: (reference: string) => [
    keys.webhookDeliveries(reference),
    keys.audit(reference),
    keys.recentDeliveries,
  ],
  /** A payout made (or imported): the lists. Approved or canceled: it and the lists. */
  createPayout: () => [keys.payoutLists],
  payout: (id: string) => [keys.payout(id), keys.payoutLists],
  wallets: () => [keys.wallets],
  apiKeys: () => [keys.apiKeys],
  members: () => [keys.members],
  /** A new webhook secret (the answer is the secret, not the profile). */
  profile: () => [keys.profile],
  testWebhook: () => [keys.recentDeliveries],
} satisfies Record<string, (...args: never[]) => QueryKey[]>;
