import type { z } from 'zod';
import {
  DELIVERY_ERROR_MAX,
  MESSENGER_TEXT_MAX,
  type ZMessengerDelivery,
  type ZWebhookDelivery,
} from '../../contract';
import type { MessengerDelivery, WebhookDelivery } from '../db/models';

type EventType = z.infer<typeof ZWebhookDelivery>['eventType'];

/** Errors may quote what the receiver or a resolver said: at most `max` characters are shown. */
const cut = (text: string | null, max: number) =>
  text === null || text.length <= max ? text : `${text.slice(0, max - 1)}…`;

export function presentWebhookDelivery(d: WebhookDelivery): z.infer<typeof ZWebhookDelivery> {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType as EventType,
    url: d.url,
    attempt: d.attempt,
    requestBody: d.requestBody,
    responseStatus: d.responseStatus,
    responseBody: d.responseBody,
    error: cut(d.error, DELIVERY_ERROR_MAX),
    durationMs: d.durationMs,
    createdAt: d.createdAt.toISOString(),
    nextRetryAt: d.nextRetryAt ? d.nextRetryAt.toISOString() : null,
  };
}

export function presentMessengerDelivery(d: MessengerDelivery): z.infer<typeof ZMessengerDelivery> {
  return {
    id: d.id,
    eventType: d.eventType as EventType,
    chatId: d.chatId,
    text: cut(d.text, MESSENGER_TEXT_MAX)!,
    status: d.status,
    responseStatus: d.responseStatus,
    responseBody: d.responseBody,
    error: cut(d.error, DELIVERY_ERROR_MAX),
    attempt: d.attempt,
    durationMs: d.durationMs,
    createdAt: d.createdAt.toISOString(),
  };
}
