import type { ClientInferRequest } from '@ts-rest/core';
import { MAX_PER_PAGE } from '../../../contract';
import {
  byReference,
  everyItem,
  everyMatch,
  idempotencyHeaders,
  segment,
  success,
  type ClientContext,
  type Contract,
} from './core';
import type {
  AuditList,
  CreateOrderParams,
  CreateRefundParams,
  EmailDeliveryList,
  ListAllOrdersQuery,
  ListOrdersQuery,
  MessengerDeliveryList,
  Order,
  OrderCursorPage,
  OrderPage,
  PaymentList,
  Refund,
  RefundList,
  RequestOptions,
  UnattributedPage,
  UnattributedPayment,
  UnattributedQuery,
  WebhookDelivery,
  WebhookDeliveryList,
} from './types';

export interface RefundsApi {
  /**
   * POST /orders/{reference}/refunds: refund all (no amount) or part of what the order
   * received, to `to` or to the address the payer gives on `refundUrl`. Always sends an
   * Idempotency-Key (yours, or a random UUID), the same on every retry. Sign and send it with
   * `sendRefund` from `@stablepay/sdk/refunds`, or open `payUrl` in the receiving wallet.
   */
  create(reference: string, body?: CreateRefundParams, opts?: RequestOptions): Promise<Refund>;
  /** GET /orders/{reference}/refunds: oldest first; pending ones carry a fresh transaction. */
  list(reference: string): Promise<RefundList>;
  /**
   * POST /orders/{reference}/refunds/{id}/approve: your word that the address the payer gave
   * without proof (status AWAITING_APPROVAL) is the payer's. The refund becomes PENDING, with
   * its transaction. Anyone who knows a refund id can give an address: approve only one you
   * have checked with the payer.
   */
  approve(reference: string, refundId: string): Promise<Refund>;
}

export interface OrdersApi {
  /**
   * POST /orders. Always sends an Idempotency-Key (yours, or a random UUID), the same one on
   * every retry, so a retried creation never makes a second order.
   */
  create(body: CreateOrderParams, opts?: RequestOptions): Promise<Order>;
  /** GET /orders/{reference}. */
  get(reference: string): Promise<Order>;
  /** GET /users/me/orders: page mode ({items, page, per_page, total}), or cursor mode with `cursor`. */
  list(query: ListOrdersQuery & { cursor: string }): Promise<OrderCursorPage>;
  list(query?: ListOrdersQuery & { cursor?: undefined }): Promise<OrderPage>;
  list(query?: ListOrdersQuery): Promise<OrderPage | OrderCursorPage>;
  /** Every order matching the filters, newest first, across cursor pages of 50. */
  listAll(query?: ListAllOrdersQuery): AsyncGenerator<Order, void, undefined>;
  /**
   * POST /orders/{reference}/submit-tx: attribute a transfer to the order (your word; still
   * verified on chain: the right token, to the order's wallet, final, credited to no other order).
   */
  submitTx(reference: string, txId: string, opts?: { network?: Order['network'] }): Promise<Order>;
  /** GET /orders/{reference}/payments: the ledger of credited transfers (txId, from, amount, matchedBy). */
  payments(reference: string): Promise<PaymentList>;
  refunds: RefundsApi;
  /** GET /orders/{reference}/audit: the order's timeline, oldest first. */
  audit(reference: string): Promise<AuditList>;
  /** GET /orders/{reference}/webhook-deliveries. */
  webhookDeliveries(reference: string): Promise<WebhookDeliveryList>;
  /** GET /orders/{reference}/messenger-deliveries. */
  messengerDeliveries(reference: string): Promise<MessengerDeliveryList>;
  /**
   * GET /orders/{reference}/email-deliveries: the e-mails to the order's customer (its receipt,
   * a subscription's order and reminder) and how sending them went; empty when the server sends
   * no e-mail.
   */
  emailDeliveries(reference: string): Promise<EmailDeliveryList>;
  /** POST /orders/{reference}/webhook-deliveries/{id}/redeliver: send that event again now. */
  redeliverWebhook(reference: string, deliveryId: string): Promise<WebhookDelivery>;
}

export interface UnattributedPaymentsApi {
  /**
   * GET /users/me/unattributed-payments: one page of the transfers to your wallets that
   * credited no order, newest first; pass `nextCursor` back as `cursor` until it is null.
   * Attribute one with orders.submitTx(reference, txId).
   */
  list(query?: UnattributedQuery): Promise<UnattributedPage>;
  /** Every unattributed transfer across cursor pages of 50, newest first. */
  listAll(): AsyncGenerator<UnattributedPayment, void, undefined>;
}

type ListArgs = ClientInferRequest<Contract['orders']['list']>['query'];

function refundsApi({ raw }: ClientContext): RefundsApi {
  return {
    async create(
      reference: string,
      body: CreateRefundParams = {},
      opts: RequestOptions = {},
    ): Promise<Refund> {
      const headers = idempotencyHeaders(opts.idempotencyKey);
      return success(raw.refunds.create({ ...byReference(reference), body, headers }));
    },
    async list(reference: string): Promise<RefundList> {
      return success(raw.refunds.list(byReference(reference)));
    },
    async approve(reference: string, refundId: string): Promise<Refund> {
      return success(
        raw.refunds.approve({ params: { reference: segment(reference), id: segment(refundId) } }),
      );
    },
  };
}

export function ordersApi(ctx: ClientContext): OrdersApi {
  const { raw } = ctx;

  async function list(query: ListOrdersQuery & { cursor: string }): Promise<OrderCursorPage>;
  async function list(query?: ListOrdersQuery & { cursor?: undefined }): Promise<OrderPage>;
  async function list(query?: ListOrdersQuery): Promise<OrderPage | OrderCursorPage>;
  async function list(query: ListOrdersQuery = {}): Promise<OrderPage | OrderCursorPage> {
    return success(raw.orders.list({ query: query satisfies ListArgs }));
  }

  async function* listAll(query: ListAllOrdersQuery = {}): AsyncGenerator<Order, void, undefined> {
    // Paging is the iterator's own: a page, cursor or per_page slipped in (from JS) is dropped.
    const { page: _page, cursor: _cursor, per_page: _perPage, ...filters } = query as ListOrdersQuery;
    yield* everyItem((cursor) => list({ ...filters, cursor, per_page: MAX_PER_PAGE }));
  }

  return {
    async create(body: CreateOrderParams, opts: RequestOptions = {}): Promise<Order> {
      return success(raw.orders.create({ body, headers: idempotencyHeaders(opts.idempotencyKey) }));
    },
    async get(reference: string): Promise<Order> {
      return success(raw.orders.get(byReference(reference)));
    },
    list,
    listAll,
    async submitTx(
      reference: string,
      txId: string,
      opts: { network?: Order['network'] } = {},
    ): Promise<Order> {
      // `network`: the transaction's, one of the order's payment options' (default: told by the txId's form).
      return success(raw.orders.submitTx({ ...byReference(reference), body: { txId, ...opts } }));
    },
    async payments(reference: string): Promise<PaymentList> {
      return success(raw.refunds.payments(byReference(reference)));
    },
    refunds: refundsApi(ctx),
    async audit(reference: string): Promise<AuditList> {
      return success(raw.deliveries.audit(byReference(reference)));
    },
    async webhookDeliveries(reference: string): Promise<WebhookDeliveryList> {
      return success(raw.deliveries.webhookDeliveries(byReference(reference)));
    },
    async messengerDeliveries(reference: string): Promise<MessengerDeliveryList> {
      return success(raw.deliveries.messengerDeliveries(byReference(reference)));
    },
    async emailDeliveries(reference: string): Promise<EmailDeliveryList> {
      return success(raw.emails.emailDeliveries(byReference(reference)));
    },
    async redeliverWebhook(reference: string, deliveryId: string): Promise<WebhookDelivery> {
      return success(
        raw.deliveries.redeliverWebhook({
          params: { reference: segment(reference), id: segment(deliveryId) },
        }),
      );
    },
  };
}

export function unattributedPaymentsApi({ raw }: ClientContext): UnattributedPaymentsApi {
  const list = async (query: UnattributedQuery = {}): Promise<UnattributedPage> =>
    success(raw.claims.unattributed({ query }));
  return {
    list,
    listAll(): AsyncGenerator<UnattributedPayment, void, undefined> {
      return everyMatch(list, {});
    },
  };
}
