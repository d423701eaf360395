import type { DeliveryChannel } from '../db/models/event-delivery';

/** A delivery task and what its send reads, as the one loader (load-deliveries.ts) returns it. */
export type Delivery = {
  task: { id: string; channel: DeliveryChannel; target: string; attempts: number; lockedBy: string | null };
  event: DeliveryEvent | null;
  merchant: MerchantSettings | null;
  /** Null for an event about no order (a test `ping`), and for a missing order. */
  order: OrderSettings | null;
};

export type DeliveryEvent = {
  id: string;
  orderId: string | null;
  merchantId: string;
  type: string;
  body: string;
};

/** The merchant's delivery settings, read at send time. */
export type MerchantSettings = {
  webhookUrl: string | null;
  messengerChatId: string | null;
  messengerBotTokenSealed: string | null;
  webhookSecretSealed: string | null;
  previousWebhookSecretSealed: string | null;
  previousWebhookSecretExpiresAt: Date | null;
};

/** An order's own destinations, which come before the profile's. */
export type OrderSettings = { webhookUrl: string | null; messengerChatId: string | null };

/** What a channel's sender is given: a task's event with the settings in force now. */
export type Sendable = {
  event: DeliveryEvent;
  merchant: MerchantSettings;
  order: OrderSettings | null;
  /** 1 for the event's first attempt on this channel. */
  attempt: number;
};

/** The outcome of one send, as the recorder (record-attempts.ts) records it. */
export type Outcome = {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
  /** Honour the receiver's own retry hint (Telegram's 429 retry_after). */
  retryAfterSeconds?: number | null;
  /** Nothing will change by retrying (e.g. the bot token was removed). */
  permanent?: boolean;
  /** Not sent and not an attempt: wait (no signing secret yet) without spending the retry budget. */
  deferred?: boolean;
  /** Where it went: the webhook URL or chat id in force at send time. */
  target?: string;
  requestBody: string;
};

/** An outcome of no request: nothing was sent. */
export function failure(error: string, requestBody: string, permanent = false): Outcome {
  return { ok: false, status: null, body: null, error, durationMs: 0, permanent, requestBody };
}

/** Where a removed setting was looked for, for the failure that says so. */
export const settingsPlace = (order: OrderSettings | null) =>
  order ? 'the order and the profile' : 'the profile';
