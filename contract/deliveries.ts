import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { URL_MAX, ZDateTime, ZReference, errors, merchantAuth } from './common';
import { ZReferenceParams, merchantErrors, orderErrors, orderList } from './shapes';
import { EVENT_SCOPES_NOTE, ZEventId, ZEventType } from './events';
import { ZMessengerChatId } from './orders';
import { ZAuditKind } from './lifecycles';

const c = initContract();

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
const ZDurationMs = z
  .number()
  .int()
  .min(0)
  .max(INT32_MAX)
  .nullable()
  .describe(
    'How long the send took, in ms (null where not measured: messenger sends recorded before it was)',
  );

export const ZWebhookDelivery = z
  .object({
    id: ZRowId.describe('The attempt (pass to redeliver)'),
    eventId: ZEventId.describe('evt_…: the same on every attempt of one event'),
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
    durationMs: ZDurationMs,
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
    durationMs: ZDurationMs,
    createdAt: ZDateTime,
  })
  .describe('One messenger (Telegram Bot API sendMessage) attempt; the bot token never appears');

/** Who acted: a member (`data.memberId`, `data.memberEmail`), an API key (`data.apiKeyId`, `data.apiKeyName`), the payer, the service; `merchant` on entries written before members. */
export const AUDIT_ACTORS = ['member', 'api_key', 'payer', 'system', 'merchant'] as const;
export const ZAuditEntry = z
  .object({
    id: ZRowId,
    type: ZAuditKind,
    actor: z
      .enum(AUDIT_ACTORS)
      .describe(
        'Who caused it: `member` (its `memberId` and `memberEmail` in data), `api_key` (`apiKeyId`, `apiKeyName`), `payer`, `system`; `merchant` on entries written before members',
      ),
    data: z.record(z.unknown()).describe('The facts of the entry (e.g. from, to, reason, txId)'),
    createdAt: ZDateTime,
  })
  .describe("One entry of an order's timeline");
export type AuditEntry = z.infer<typeof ZAuditEntry>;

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
      description: `The last ${RECENT_DELIVERIES} attempts to deliver the merchant's events (test pings included), with the signed body and the receiver's answer: what the dashboard's Developers page shows. Redeliver one through its order. Only the attempts of the events the credential is shown. ${EVENT_SCOPES_NOTE}`,
      metadata: merchantAuth('orders:read', 'events:read'),
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
        "Every attempt to deliver the order's events, with the signed body and the receiver's answer. Delivery is at least once: a non-2xx answer or a 10 s timeout is a failed attempt, retried with exponential back-off for about 24 h. 404 for an unknown reference or another merchant's order. Only the attempts of the events the credential is shown (a subscription's order has subscription events too). " +
        EVENT_SCOPES_NOTE,
      metadata: merchantAuth('orders:read', 'orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZWebhookDelivery), ...orderErrors },
    },
    redeliverWebhook: {
      method: 'POST',
      path: '/orders/:reference/webhook-deliveries/:id/redeliver',
      summary: 'Send the event of a recorded webhook attempt again, now',
      description:
        'Signs and sends the same event (same id and body) to the current target, records the attempt and returns it. A success ends any pending retries of that event. 404 for an unknown delivery id of this order; 403 FORBIDDEN for the attempt of an event the API key is not shown (the answer carries its body). ' +
        EVENT_SCOPES_NOTE,
      metadata: merchantAuth('orders:write', 'webhooks:write'),
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
        "Every messenger (Telegram Bot API) message sent or tried for the order's events, with the same retry rules as webhooks. The bot token never appears. 404 for an unknown reference or another merchant's order. Only the sends of the events the credential is shown. " +
        EVENT_SCOPES_NOTE,
      metadata: merchantAuth('orders:read', 'orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZMessengerDelivery), ...orderErrors },
    },
    telegramDeliveries: {
      method: 'GET',
      path: '/orders/:reference/telegram-deliveries',
      summary: 'Alias of /messenger-deliveries',
      description: 'Deprecated: the same answer as GET /orders/{reference}/messenger-deliveries; use that.',
      deprecated: true,
      metadata: merchantAuth('orders:read', 'orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZMessengerDelivery), ...orderErrors },
    },
    audit: {
      method: 'GET',
      path: '/orders/:reference/audit',
      summary: "The order's event timeline, oldest first",
      description:
        "What happened to the order and who did it (`merchant`, `payer`, `system`): creation (with any amount adjustment for uniqueness), reported transactions, verified or rejected payments with the reason, status changes, refunds. 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read', 'orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZAuditEntry), ...orderErrors },
    },
  },
  { strictStatusCodes: true },
);
