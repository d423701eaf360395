import type { ClientInferRequest } from '@ts-rest/core';
import { byId, everyMatch, idempotencyHeaders, success, type ClientContext, type Contract } from './core';
import type {
  CreateSubscriptionParams,
  CursorQuery,
  ListAllSubscriptionsQuery,
  ListSubscriptionsQuery,
  OrderCursorPage,
  RequestOptions,
  Subscription,
  SubscriptionPage,
} from './types';

export interface SubscriptionsApi {
  /**
   * POST /subscriptions: an order every period, made by the service and sent to the customer
   * (nothing is pulled from a wallet). Always sends an Idempotency-Key (yours, or a random
   * UUID), the same on every retry.
   */
  create(body: CreateSubscriptionParams, opts?: RequestOptions): Promise<Subscription>;
  /**
   * GET /subscriptions: one page, newest first (filters `status`, `customer_email` in any
   * case); pass `nextCursor` back as `cursor` (same filters) until it is null.
   */
  list(query?: ListSubscriptionsQuery): Promise<SubscriptionPage>;
  /** Every subscription matching the filters, newest first, across cursor pages of 50. */
  listAll(query?: ListAllSubscriptionsQuery): AsyncGenerator<Subscription, void, undefined>;
  /** GET /subscriptions/{id}. */
  get(id: string): Promise<Subscription>;
  /** GET /subscriptions/{id}/orders: one page of its orders (one or more a period), newest first. */
  orders(id: string, query?: CursorQuery): Promise<OrderCursorPage>;
  /**
   * POST /subscriptions/{id}/cancel: CANCELED now, or with `atPeriodEnd` no order after the
   * current period (ConflictError when already CANCELED; never retried on an unknown outcome).
   */
  cancel(id: string, opts?: { atPeriodEnd?: boolean }): Promise<Subscription>;
  /** POST /subscriptions/{id}/pause: no orders until resumed (ConflictError when PAUSED or CANCELED). */
  pause(id: string): Promise<Subscription>;
  /** POST /subscriptions/{id}/resume: orders again, the current period's at once when none is open. */
  resume(id: string): Promise<Subscription>;
}

type ListSubscriptionsArgs = ClientInferRequest<Contract['subscriptions']['list']>['query'];

export function subscriptionsApi({ raw }: ClientContext): SubscriptionsApi {
  const list = async (query: ListSubscriptionsQuery = {}): Promise<SubscriptionPage> =>
    success(raw.subscriptions.list({ query: query satisfies ListSubscriptionsArgs }));
  return {
    async create(body: CreateSubscriptionParams, opts: RequestOptions = {}): Promise<Subscription> {
      return success(raw.subscriptions.create({ body, headers: idempotencyHeaders(opts.idempotencyKey) }));
    },
    list,
    listAll(query: ListAllSubscriptionsQuery = {}): AsyncGenerator<Subscription, void, undefined> {
      return everyMatch(list, query);
    },
    async get(id: string): Promise<Subscription> {
      return success(raw.subscriptions.get(byId(id)));
    },
    async orders(id: string, query: CursorQuery = {}): Promise<OrderCursorPage> {
      return success(raw.subscriptions.orders({ ...byId(id), query }));
    },
    async cancel(id: string, opts: { atPeriodEnd?: boolean } = {}): Promise<Subscription> {
      return success(raw.subscriptions.cancel({ ...byId(id), body: opts }));
    },
    async pause(id: string): Promise<Subscription> {
      return success(raw.subscriptions.pause(byId(id)));
    },
    async resume(id: string): Promise<Subscription> {
      return success(raw.subscriptions.resume(byId(id)));
    },
  };
}
