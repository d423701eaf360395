import {
  infiniteQueryOptions,
  QueryClient,
  queryOptions,
  useQueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Order, PayoutStatus } from '../../../contract';
import { api, ApiFailure, ok } from '../api';
import { keys, type OrdersQuery, type SubscriptionsQuery, type SummaryRange } from './query-keys';

/**
 * The query layer: every read of the dashboard, by resource, through the contract's typed client
 * (api.ts) and TanStack Query's cache under the keys of query-keys.ts. Pages read with useQuery;
 * the live events (event-refresh.ts) and the writes (changedByWrite) refresh by key.
 */

/** The dashboard's cache, with the defaults every query shares. */
export function newQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The pages that change by themselves follow the events: a tab brought to the front does
        // not read everything again.
        refetchOnWindowFocus: false,
        // What the API answered (a 4xx) is not asked again; a lost connection or a 5xx twice more.
        retry: (failures, error) =>
          failures < 2 && error instanceof ApiFailure && (error.status === 0 || error.status >= 500),
      },
    },
  });
}

/**
 * Drops everything read for the merchant when a session ends or another begins (the networks, the
 * service's configuration, stay): nothing one merchant saw is shown to the next.
 */
export function forgetMerchantData(client: QueryClient) {
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== keys.networks[0] });
}

/** A function that reads `changed` keys again (those shown now at once, the others when next shown). */
export function useRefresh() {
  const client = useQueryClient();
  return useCallback(
    (changed: readonly QueryKey[]) => {
      for (const queryKey of changed) void client.invalidateQueries({ queryKey });
    },
    [client],
  );
}

type OrderArgs = { params: { reference: string } };

/** A read of one part of an order, by its reference, under that part's key. */
const orderPart =
  <T>(key: (reference: string) => QueryKey, read: (args: OrderArgs) => Promise<T>) =>
  (reference: string) =>
    queryOptions({ queryKey: key(reference), queryFn: () => read({ params: { reference } }) });

type OrderListEndpoint = (args: OrderArgs) => Promise<{ status: number; body: unknown; headers: Headers }>;
/** The items of an order's list endpoint's 200 answer, typed from the contract. */
type ItemsOf<E extends OrderListEndpoint> =
  Extract<Awaited<ReturnType<E>>, { status: 200 }> extends { body: { items: infer I } } ? I : never;

/** A read of one of an order's lists (payments, refunds, …): the items its endpoint answers. */
const orderItems = <E extends OrderListEndpoint>(key: (reference: string) => QueryKey, list: E) =>
  orderPart(key, async (args) => (ok(await list(args), 200) as { items: ItemsOf<E> }).items);

export const orderQuery = orderPart(keys.order, async (args) => ok(await api.orders.get(args), 200));
export const paymentsQuery = orderItems(keys.payments, api.refunds.payments);
export const refundsQuery = orderItems(keys.refunds, api.refunds.list);
export const auditQuery = orderItems(keys.audit, api.deliveries.audit);
export const webhookDeliveriesQuery = orderItems(keys.webhookDeliveries, api.deliveries.webhookDeliveries);
export const messengerDeliveriesQuery = orderItems(
  keys.messengerDeliveries,
  api.deliveries.messengerDeliveries,
);

/** A page of the orders list, as the cache keeps it. */
export type OrdersPage = { items: Order[]; nextCursor: string | null };

export const ordersQuery = (query: OrdersQuery) =>
  queryOptions({
    queryKey: keys.orderList(query),
    queryFn: async (): Promise<OrdersPage> => {
      const body = ok(await api.orders.list({ query }), 200);
      return { items: body.items, nextCursor: 'nextCursor' in body ? body.nextCursor : null };
    },
  });

export const summaryQuery = (range: SummaryRange) =>
  queryOptions({
    queryKey: keys.summary(range),
    queryFn: async () => ok(await api.dashboard.summary({ query: range }), 200),
  });

export const walletsQuery = queryOptions({
  queryKey: keys.wallets,
  queryFn: async () => ok(await api.wallets.list(), 200).items,
});

const readProfile = async () => ok(await api.profile.get(), 200);
export type Profile = Awaited<ReturnType<typeof readProfile>>;
export const profileQuery = queryOptions({ queryKey: keys.profile, queryFn: readProfile });

/** Keeps the profile a write answered with (PATCH /users/me answers the new profile): no read needed. */
export function useProfileAnswer() {
  const client = useQueryClient();
  return useCallback((profile: Profile) => client.setQueryData(keys.profile, profile), [client]);
}

export const apiKeysQuery = queryOptions({
  queryKey: keys.apiKeys,
  queryFn: async () => ok(await api.apiKeys.list(), 200).items,
});

export const x402GasKeysQuery = queryOptions({
  queryKey: keys.x402GasKeys,
  queryFn: async () => ok(await api.x402.gasKeys(), 200),
});

export const membersQuery = queryOptions({
  queryKey: [...keys.members, 'list'],
  queryFn: async () => ok(await api.members.list(), 200).items,
});

export const invitationsQuery = queryOptions({
  queryKey: [...keys.members, 'invitations'],
  queryFn: async () => ok(await api.members.listInvitations(), 200).items,
});

export const recentDeliveriesQuery = queryOptions({
  queryKey: keys.recentDeliveries,
  queryFn: async () => ok(await api.deliveries.recentWebhookDeliveries(), 200).items,
});

/** A list read a page at a time: `read` answers the page after `cursor` ('' for the first) and the next cursor. */
const pagedQuery = <P extends { nextCursor?: string | null }>(
  queryKey: QueryKey,
  read: (cursor: string) => Promise<P>,
) =>
  infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => read(pageParam),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

const UNATTRIBUTED_PER_PAGE = 20;

/** Transfers that credited no order, newest first, a page at a time; read again as deep as loaded. */
export const unattributedQuery = pagedQuery(keys.unattributed, async (cursor) =>
  ok(await api.claims.unattributed({ query: { per_page: UNATTRIBUTED_PER_PAGE, cursor } }), 200),
);

/**
 * The networks the service takes payments on (GET /networks): its configuration, read once per
 * page load, and retried a few times, as the pickers stay empty without it.
 */
export const networksQuery = queryOptions({
  queryKey: keys.networks,
  // Public: read before sign-in too (the sign-in page shows the sandbox banner from it).
  queryFn: async () => ok(await api.networks.list(), 200),
  staleTime: Infinity,
  retry: 5,
  retryDelay: (attempt) => 1000 * 2 ** attempt,
});

const PAYOUTS_PER_PAGE = 20;

/** Payouts (without items), newest first, one status or all (''), a page at a time. */
export const payoutsQuery = (status: PayoutStatus | '') =>
  pagedQuery(keys.payoutList(status), async (cursor) =>
    ok(
      await api.payouts.list({
        query: { ...(status ? { status } : {}), per_page: PAYOUTS_PER_PAGE, cursor },
      }),
      200,
    ),
  );

export const payoutQuery = (id: string) =>
  queryOptions({
    queryKey: keys.payout(id),
    queryFn: async () => ok(await api.payouts.get({ params: { id } }), 200),
  });

const SUBSCRIPTIONS_PER_PAGE = 20;

/** Subscriptions matching the filters, newest first, a page at a time ("Load more"). */
export const subscriptionsQuery = (query: SubscriptionsQuery) =>
  pagedQuery(keys.subscriptionList(query), async (cursor) =>
    ok(await api.subscriptions.list({ query: { ...query, per_page: SUBSCRIPTIONS_PER_PAGE, cursor } }), 200),
  );

export const subscriptionQuery = (id: string) =>
  queryOptions({
    queryKey: keys.subscription(id),
    queryFn: async () => ok(await api.subscriptions.get({ params: { id } }), 200),
  });

/** A subscription's orders, newest first, a page at a time. */
export const subscriptionOrdersQuery = (id: string) =>
  pagedQuery(keys.subscriptionOrders(id), async (cursor) =>
    ok(
      await api.subscriptions.orders({ params: { id }, query: { per_page: SUBSCRIPTIONS_PER_PAGE, cursor } }),
      200,
    ),
  );
