import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZDateTime, errors, merchantAuth } from './common';
import { ZOrder, ZReferenceParams } from './orders';
import { ZPayment, ZRefund } from './refunds';

const c = initContract();

export const EVENT_TYPES = [
  'order.created',
  'order.confirming',
  'order.paid',
  'order.underpaid',
  'order.expired',
  'order.payment_rejected',
  'refund.created',
  'refund.succeeded',
  'refund.failed',
] as const;
export const ZEventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof ZEventType>;

/**
 * The body of every webhook: the event and the order as it was when the event happened; with the
 * credited transfer that caused it (`payment`) or the refund it is about (`refund`, without its
 * transaction).
 */
export const ZWebhookEvent = z.object({
  id: z.string().describe('evt_…: the same on every attempt (X-Webhook-Id)'),
  type: ZEventType,
  createdAt: ZDateTime,
  data: z.object({ order: ZOrder, payment: ZPayment.optional(), refund: ZRefund.optional() }),
});
export type WebhookEventBody = z.infer<typeof ZWebhookEvent>;

export const ZWebhookDelivery = z
  .object({
    id: z.string().describe('The attempt (pass to redeliver)'),
    eventId: z.string().describe('evt_…: the same on every attempt of one event'),
    eventType: ZEventType,
    url: z.string().describe('Where it was sent'),
    attempt: z.number().int().describe('1 for the first attempt of the event'),
    requestBody: z.string().describe('The exact JSON body that was signed and sent'),
    responseStatus: z.number().int().nullable().describe('HTTP status of the answer (null when none came)'),
    responseBody: z.string().nullable().describe('First 2,048 characters'),
    error: z.string().nullable().describe('Why the attempt failed (non-2xx, timeout, connection error)'),
    durationMs: z.number().int().nullable(),
    createdAt: ZDateTime,
    nextRetryAt: ZDateTime.nullable().describe('When the next attempt is due (null when none is)'),
  })
  .describe('One attempt to deliver a webhook event');

export const ZMessengerDelivery = z
  .object({
    id: z.string(),
    eventType: ZEventType,
    chatId: z.string(),
    text: z.string().describe('The message sent'),
    status: z.enum(['SENT', 'FAILED']),
    responseStatus: z.number().int().nullable(),
    responseBody: z.string().nullable().describe('The answer, truncated'),
    error: z.string().nullable(),
    attempt: z.number().int(),
    createdAt: ZDateTime,
  })
  .describe('One messenger (Telegram Bot API sendMessage) attempt; the bot token never appears');

export const AUDIT_ACTORS = ['merchant', 'payer', 'system'] as const;
export const ZAuditEntry = z
  .object({
    id: z.string(),
    type: z.string().describe('e.g. order.created, status.changed, tx.submitted, tx_request.issued'),
    actor: z.enum(AUDIT_ACTORS).describe('Who caused it'),
    data: z.record(z.unknown()).describe('The facts of the entry (e.g. from, to, reason, txId)'),
    createdAt: ZDateTime,
  })
  .describe("One entry of an order's timeline");

const list = <T extends z.ZodTypeAny>(item: T) => z.object({ items: z.array(item) });
const orderErrors = errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'NOT_FOUND');

export const deliveriesContract = c.router(
  {
    webhookDeliveries: {
      method: 'GET',
      path: '/orders/:reference/webhook-deliveries',
      summary: "History of the order's webhook attempts, oldest first",
      description:
        "Every attempt to deliver the order's events, with the signed body and the receiver's answer. Delivery is at least once: a non-2xx answer or a 10 s timeout is a failed attempt, retried with exponential back-off for about 24 h. 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: list(ZWebhookDelivery), ...orderErrors },
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
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'NOT_FOUND', 'CONFLICT'),
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
      responses: { 200: list(ZMessengerDelivery), ...orderErrors },
    },
    telegramDeliveries: {
      method: 'GET',
      path: '/orders/:reference/telegram-deliveries',
      summary: 'Alias of /messenger-deliveries',
      description: 'Deprecated: the same answer as GET /orders/{reference}/messenger-deliveries; use that.',
      deprecated: true,
      metadata: merchantAuth('orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: list(ZMessengerDelivery), ...orderErrors },
    },
    audit: {
      method: 'GET',
      path: '/orders/:reference/audit',
      summary: "The order's event timeline, oldest first",
      description:
        "What happened to the order and who did it (`merchant`, `payer`, `system`): creation (with any amount adjustment for uniqueness), reported transactions, verified or rejected payments with the reason, status changes, refunds. 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: list(ZAuditEntry), ...orderErrors },
    },
  },
  { strictStatusCodes: true },
);
