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

export const ZWebhookDelivery = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: ZEventType,
  url: z.string(),
  attempt: z.number().int(),
  requestBody: z.string().describe('The exact JSON body that was signed and sent'),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable().describe('First 2,048 characters'),
  error: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  createdAt: ZDateTime,
  nextRetryAt: ZDateTime.nullable(),
});

export const ZMessengerDelivery = z.object({
  id: z.string(),
  eventType: ZEventType,
  chatId: z.string(),
  text: z.string(),
  status: z.enum(['SENT', 'FAILED']),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  attempt: z.number().int(),
  createdAt: ZDateTime,
});

export const AUDIT_ACTORS = ['merchant', 'payer', 'system'] as const;
export const ZAuditEntry = z.object({
  id: z.string(),
  type: z.string().describe('e.g. order.created, status.changed, tx.submitted, tx_request.issued'),
  actor: z.enum(AUDIT_ACTORS),
  data: z.record(z.unknown()),
  createdAt: ZDateTime,
});

const list = <T extends z.ZodTypeAny>(item: T) => z.object({ items: z.array(item) });
const orderErrors = errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'NOT_FOUND');

export const deliveriesContract = c.router(
  {
    webhookDeliveries: {
      method: 'GET',
      path: '/orders/:reference/webhook-deliveries',
      summary: "History of the order's webhook attempts, oldest first",
      metadata: merchantAuth,
      pathParams: ZReferenceParams,
      responses: { 200: list(ZWebhookDelivery), ...orderErrors },
    },
    redeliverWebhook: {
      method: 'POST',
      path: '/orders/:reference/webhook-deliveries/:id/redeliver',
      summary: 'Send the event of a recorded webhook attempt again, now',
      description:
        'Signs and sends the same event (same id and body) to the current target, records the attempt and returns it. A success ends any pending retries of that event.',
      metadata: merchantAuth,
      pathParams: ZReferenceParams.extend({
        id: z.string().regex(/^[1-9]\d{0,17}$/, 'must be a delivery id'),
      }),
      body: c.noBody(),
      responses: { 200: ZWebhookDelivery, ...orderErrors },
    },
    messengerDeliveries: {
      method: 'GET',
      path: '/orders/:reference/messenger-deliveries',
      summary: "History of the order's messenger sends, oldest first",
      metadata: merchantAuth,
      pathParams: ZReferenceParams,
      responses: { 200: list(ZMessengerDelivery), ...orderErrors },
    },
    telegramDeliveries: {
      method: 'GET',
      path: '/orders/:reference/telegram-deliveries',
      summary: 'Alias of /messenger-deliveries',
      deprecated: true,
      metadata: merchantAuth,
      pathParams: ZReferenceParams,
      responses: { 200: list(ZMessengerDelivery), ...orderErrors },
    },
    audit: {
      method: 'GET',
      path: '/orders/:reference/audit',
      summary: "The order's event timeline, oldest first",
      metadata: merchantAuth,
      pathParams: ZReferenceParams,
      responses: { 200: list(ZAuditEntry), ...orderErrors },
    },
  },
  { strictStatusCodes: true },
);
