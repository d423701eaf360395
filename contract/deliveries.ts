import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZApiVersion } from './api-versions';
import { URL_MAX, ZDateTime, ZReference, errors, merchantAuth } from './common';
import { ZReferenceParams, merchantErrors, orderErrors, orderList } from './shapes';
import { ZMessengerChatId, ZOrder } from './orders';
import { ZClaimedTransfer } from './claims';
import { ZPayment, ZRefund } from './refunds';

const c = initContract();

export const ORDER_EVENT_TYPES = [
  'order.created',
  'order.confirming',
  'order.paid',
  'order.underpaid',
  'order.expired',
  'order.payment_rejected',
  'order.payment_claimed',
] as const;
export const REFUND_EVENT_TYPES = ['refund.created', 'refund.succeeded', 'refund.failed'] as const;
/**
 * Every event type. A new type is a new API version (contract/api-versions.ts): merchants are sent
 * only the types their version knows.
 */
export const EVENT_TYPES = [...ORDER_EVENT_TYPES, ...REFUND_EVENT_TYPES, 'ping'] as const;
export const ZEventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof ZEventType>;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];
export type RefundEventType = (typeof REFUND_EVENT_TYPES)[number];

/** What every event body starts with. */
const envelope = <T extends EventType>(type: T) => ({
  id: z
    .string()
    .max(64)
    .regex(/^evt_[A-Za-z0-9]{1,60}$/)
    .describe('evt_…: the same on every attempt (X-Webhook-Id); de-duplicate on it'),
  type: z.literal(type),
  apiVersion: ZApiVersion,
  createdAt: ZDateTime,
});

/** An order event: the order as it was when the event happened, with the credited transfer that caused it. */
const orderEvent = <T extends OrderEventType>(type: T) =>
  z
    .object({
      ...envelope(type),
      data: z.object({
        order: ZOrder,
        // The credited transfer that caused the event, if one did.
        payment: ZPayment.optional(),
      }),
    })
    .describe(`The body of a \`${type}\` event`);

export const ZPaymentClaimedEvent = z
  .object({
    ...envelope('order.payment_claimed'),
    data: z.object({ order: ZOrder, claim: ZClaimedTransfer }),
  })
  .describe(
    'The body of an `order.payment_claimed` event: a payer reported a transfer the evidence does not carry (no tag, not the exact amount, no signature by the sender). It credits nothing; attribute it with POST /orders/{reference}/submit-tx if it is this order’s (API version 2026-11-27 on)',
  );

/** A refund event: the refund it is about (without its transaction) and its order. */
const refundEvent = <T extends RefundEventType>(type: T) =>
  z
    .object({
      ...envelope(type),
      // The refund is carried without its transaction (null), which would be stale by delivery.
      data: z.object({ order: ZOrder, refund: ZRefund }),
    })
    .describe(`The body of a \`${type}\` event`);

export const ZPingEvent = z
  .object({
    ...envelope('ping'),
    data: z.object({ message: z.string().max(500).describe('For people; may change') }),
  })
  .describe(
    'The body of a `ping` event: a test delivery (POST /users/me/webhook-test), about no order (API version 2026-11-24 on)',
  );

/** The body of each event type, as its webhook carries it. */
export const WEBHOOK_EVENT_SCHEMAS = {
  'order.created': orderEvent('order.created'),
  'order.confirming': orderEvent('order.confirming'),
  'order.paid': orderEvent('order.paid'),
  'order.underpaid': orderEvent('order.underpaid'),
  'order.expired': orderEvent('order.expired'),
  'order.payment_rejected': orderEvent('order.payment_rejected'),
  'order.payment_claimed': ZPaymentClaimedEvent,
  'refund.created': refundEvent('refund.created'),
  'refund.succeeded': refundEvent('refund.succeeded'),
  'refund.failed': refundEvent('refund.failed'),
  ping: ZPingEvent,
} as const satisfies { [T in EventType]: z.AnyZodObject };

/**
 * The body of every webhook (and every stored event), told apart by `type`: the event, its
 * `apiVersion` and, for order and refund events, the order as it was when the event happened.
 */
export const ZWebhookEvent = z.discriminatedUnion('type', [
  WEBHOOK_EVENT_SCHEMAS['order.created'],
  WEBHOOK_EVENT_SCHEMAS['order.confirming'],
  WEBHOOK_EVENT_SCHEMAS['order.paid'],
  WEBHOOK_EVENT_SCHEMAS['order.underpaid'],
  WEBHOOK_EVENT_SCHEMAS['order.expired'],
  WEBHOOK_EVENT_SCHEMAS['order.payment_rejected'],
  WEBHOOK_EVENT_SCHEMAS['order.payment_claimed'],
  WEBHOOK_EVENT_SCHEMAS['refund.created'],
  WEBHOOK_EVENT_SCHEMAS['refund.succeeded'],
  WEBHOOK_EVENT_SCHEMAS['refund.failed'],
  WEBHOOK_EVENT_SCHEMAS.ping,
]);
export type WebhookEventBody = z.infer<typeof ZWebhookEvent>;

const INT32_MAX = 2 ** 31 - 1;
/** Bounds of what a delivery record keeps (server/deliveries/present-delivery.ts cuts errors to it). */
export const WEBHOOK_BODY_MAX = 262144;
export const DELIVERY_RESPONSE_MAX = 2048;
export const DELIVERY_ERROR_MAX = 1000;
export const MESSENGER_TEXT_MAX = 8192;
/** A row id (a PostgreSQL bigint), as a string. */
const ZRowId = z
  .string()
  .max(19)
  .regex(/^[1-9]\d{0,18}$/);
const ZAttempt = z.number().int().min(1).max(INT32_MAX);
const ZHttpStatus = z.number().int().min(100).max(999);

export const ZWebhookDelivery = z
  .object({
    id: ZRowId.describe('The attempt (pass to redeliver)'),
    eventId: z
      .string()
      .max(64)
      .regex(/^evt_[A-Za-z0-9]{1,60}$/)
      .describe('evt_…: the same on every attempt of one event'),
    eventType: ZEventType,
    url: z.string().max(URL_MAX).url().describe('Where it was sent'),
    attempt: ZAttempt.describe('1 for the first attempt of the event'),
    requestBody: z.string().max(WEBHOOK_BODY_MAX).describe('The exact JSON body that was signed and sent'),
    responseStatus: ZHttpStatus.nullable().describe('HTTP status of the answer (null when none came)'),
    responseBody: z.string().max(DELIVERY_RESPONSE_MAX).nullable().describe('First 2,048 characters'),
    error: z
      .string()
      .max(DELIVERY_ERROR_MAX)
      .nullable()
      .describe('Why the attempt failed (non-2xx, timeout, connection error)'),
    durationMs: z.number().int().min(0).max(INT32_MAX).nullable(),
    createdAt: ZDateTime,
    nextRetryAt: ZDateTime.nullable().describe('When the next attempt is due (null when none is)'),
  })
  .describe('One attempt to deliver a webhook event');

export const ZMessengerDelivery = z
  .object({
    id: ZRowId,
    eventType: ZEventType,
    chatId: ZMessengerChatId,
    text: z.string().max(MESSENGER_TEXT_MAX).describe('The message sent'),
    status: z.enum(['SENT', 'FAILED']),
    responseStatus: ZHttpStatus.nullable(),
    responseBody: z.string().max(DELIVERY_RESPONSE_MAX).nullable().describe('The answer, truncated'),
    error: z.string().max(DELIVERY_ERROR_MAX).nullable(),
    attempt: ZAttempt,
    createdAt: ZDateTime,
  })
  .describe('One messenger (Telegram Bot API sendMessage) attempt; the bot token never appears');

export const AUDIT_ACTORS = ['merchant', 'payer', 'system'] as const;
export const ZAuditEntry = z
  .object({
    id: ZRowId,
    type: z
      .string()
      .max(100)
      .regex(/^[a-z_]+\.[a-z_]+$/)
      .describe('e.g. order.created, status.changed, tx.submitted, tx_request.issued'),
    actor: z.enum(AUDIT_ACTORS).describe('Who caused it'),
    data: z.record(z.unknown()).describe('The facts of the entry (e.g. from, to, reason, txId)'),
    createdAt: ZDateTime,
  })
  .describe("One entry of an order's timeline");

/** How many attempts GET /users/me/webhook-deliveries shows. */
export const RECENT_DELIVERIES = 50;

export const ZRecentWebhookDelivery = ZWebhookDelivery.extend({
  orderReference: ZReference.nullable().describe('The order the event is about (null for a test ping)'),
}).describe('A webhook attempt, with the order it was about');

export const deliveriesContract = c.router(
  {
    recentWebhookDeliveries: {
      method: 'GET',
      path: '/users/me/webhook-deliveries',
      summary: 'The latest webhook attempts across every order, newest first',
      description: `The last ${RECENT_DELIVERIES} attempts to deliver the merchant's events (test pings included), with the signed body and the receiver's answer: what the dashboard's Developers page shows. Redeliver one through its order.`,
      metadata: merchantAuth('orders:read'),
      responses: {
        200: z.object({ items: z.array(ZRecentWebhookDelivery).max(RECENT_DELIVERIES) }),
        ...merchantErrors,
      },
    },
    webhookDeliveries: {
      method: 'GET',
      path: '/orders/:reference/webhook-deliveries',
      summary: "History of the order's webhook attempts, oldest first",
      description:
        "Every attempt to deliver the order's events, with the signed body and the receiver's answer. Delivery is at least once: a non-2xx answer or a 10 s timeout is a failed attempt, retried with exponential back-off for about 24 h. 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZWebhookDelivery), ...orderErrors },
    },
    redeliverWebhook: {
      method: 'POST',
      path: '/orders/:reference/webhook-deliveries/:id/redeliver',
      summary: 'Send the event of a recorded webhook attempt again, now',
      description:
        'Signs and sends the same event (same id and body) to the current target, records the attempt and returns it. A success ends any pending retries of that event. 404 for an unknown delivery id of this order.',
      metadata: merchantAuth('orders:write'),
      pathParams: ZReferenceParams.extend({
        id: z
          .string()
          .max(18)
          .regex(/^[1-9]\d{0,17}$/, 'must be a delivery id'),
      }),
      body: c.noBody(),
      // 409: the delivery cannot be sent yet (no webhook signing secret, say).
      responses: {
        200: ZWebhookDelivery,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'),
      },
    },
    messengerDeliveries: {
      method: 'GET',
      path: '/orders/:reference/messenger-deliveries',
      summary: "History of the order's messenger sends, oldest first",
      description:
        "Every messenger (Telegram Bot API) message sent or tried for the order's events, with the same retry rules as webhooks. The bot token never appears. 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZMessengerDelivery), ...orderErrors },
    },
    telegramDeliveries: {
      method: 'GET',
      path: '/orders/:reference/telegram-deliveries',
      summary: 'Alias of /messenger-deliveries',
      description: 'Deprecated: the same answer as GET /orders/{reference}/messenger-deliveries; use that.',
      deprecated: true,
      metadata: merchantAuth('orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZMessengerDelivery), ...orderErrors },
    },
    audit: {
      method: 'GET',
      path: '/orders/:reference/audit',
      summary: "The order's event timeline, oldest first",
      description:
        "What happened to the order and who did it (`merchant`, `payer`, `system`): creation (with any amount adjustment for uniqueness), reported transactions, verified or rejected payments with the reason, status changes, refunds. 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZAuditEntry), ...orderErrors },
    },
  },
  { strictStatusCodes: true },
);
