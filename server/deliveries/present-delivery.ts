import type { z } from 'zod';
import type { ZMessengerDelivery, ZWebhookDelivery } from '../../contract';
import type { MessengerDelivery, WebhookDelivery } from '../db/models';

type EventType = z.infer<typeof ZWebhookDelivery>['eventType'];

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
    error: d.error,
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
    text: d.text,
    status: d.status,
    responseStatus: d.responseStatus,
    responseBody: d.responseBody,
    error: d.error,
    attempt: d.attempt,
    createdAt: d.createdAt.toISOString(),
  };
}
