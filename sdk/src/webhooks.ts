import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import type {
  MemberEventType,
  OrderEventType,
  PayoutEventType,
  RefundEventType,
  SubscriptionEventType,
  ZWebhookEvent,
} from '../../contract';
import { WebhookSignatureVerificationError } from './errors';

/**
 * Webhook verification (servers only: uses node:crypto). The service signs every delivery with
 * `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, with one
 * `v1=` per active secret (two during the 24 h after a rotation).
 */

/** The header that carries the signature (Node lower-cases header names). */
export const SIGNATURE_HEADER = 'x-webhook-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The body of every webhook, one type per event type (from the service's contract), told apart by
 * `type`: `switch (event.type)` narrows `data`, and a receiver should answer 2xx to types it does
 * not handle. Each carries `id` (`evt_...`, the same on every attempt: de-duplicate on it),
 * `apiVersion` (the version it was rendered at: your profile's `webhook_api_version`) and
 * `createdAt`.
 */
export type WebhookEvent = z.infer<typeof ZWebhookEvent>;
/**
 * An order event: `data.order` as it was when the event happened, and `data.payment`, the credited
 * transfer that caused it, when one did. `OrderEvent<'order.paid'>` is one type; `OrderEvent` all.
 */
export type OrderEvent<T extends OrderEventType = OrderEventType> = Extract<WebhookEvent, { type: T }>;
/** A refund event: `data.refund` (its `transaction` null) and its `data.order`. */
export type RefundEvent<T extends RefundEventType = RefundEventType> = Extract<WebhookEvent, { type: T }>;
/**
 * A subscription event (API version 2026-12-01 on): `data.subscription` as it is after the event,
 * and `data.order` on the events about one of its orders (order_created, active, past_due).
 * `SubscriptionEvent<'subscription.canceled'>` is one type; `SubscriptionEvent` all.
 */
export type SubscriptionEvent<T extends SubscriptionEventType = SubscriptionEventType> = Extract<
  WebhookEvent,
  { type: T }
>;
/** Whether an event is a subscription event: narrows it to `SubscriptionEvent` (its `data.subscription`). */
export function isSubscriptionEvent(event: WebhookEvent): event is SubscriptionEvent {
  return event.type.startsWith('subscription.');
}
/**
 * A member event (API version 2026-12-03 on): `data.member` (or `data.invitation` for
 * `member.invited`) and who did it (`actor`, `memberId`, `memberEmail`).
 */
export type MemberEvent<T extends MemberEventType = MemberEventType> = Extract<WebhookEvent, { type: T }>;
/** Whether an event is about the account's members: narrows it to `MemberEvent`. */
export function isMemberEvent(event: WebhookEvent): event is MemberEvent {
  return event.type.startsWith('member.');
}
/** A payout event (API version 2026-12-03 on): `data.payout` (without items), `data.item` on an item's. */
export type PayoutEvent<T extends PayoutEventType = PayoutEventType> = Extract<WebhookEvent, { type: T }>;
/** Whether an event is a payout event: narrows it to `PayoutEvent` (its `data.payout`). */
export function isPayoutEvent(event: WebhookEvent): event is PayoutEvent {
  return event.type.startsWith('payout.');
}
/** A test delivery (POST /users/me/webhook-test; API version 2026-11-24 on): about no order. */
export type PingEvent = Extract<WebhookEvent, { type: 'ping' }>;

export type ConstructEventParams = {
  /** The raw request body, exactly as received (string, Buffer or Uint8Array), never parsed JSON. */
  payload: string | Uint8Array;
  /** The X-Webhook-Signature header (as Node gives it: a string, or an array when repeated). */
  header: string | readonly string[] | null | undefined;
  /** Your webhook secret; during a rotation you may pass the new and the previous one. */
  secret: string | readonly string[];
  /** Largest accepted age (either way) of the header's timestamp, in seconds; 0 disables the check. */
  tolerance?: number;
  /** "Now" in unix seconds (tests); default the clock. */
  now?: number;
};

export type GenerateTestHeaderParams = {
  payload: string | Uint8Array;
  /** One v1= per secret, in order (two to mimic a rotation). */
  secret: string | readonly string[];
  /** Unix seconds (default now). */
  timestamp?: number;
};

const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;

function sign(payload: string | Uint8Array, secret: string, timestamp: number): Buffer {
  const hmac = createHmac('sha256', secret).update(`${timestamp}.`, 'utf8');
  return (typeof payload === 'string' ? hmac.update(payload, 'utf8') : hmac.update(payload)).digest();
}

function secretsOf(secret: string | readonly string[]): string[] {
  const list = (typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : []).filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
  if (list.length === 0)
    throw new WebhookSignatureVerificationError(
      'SECRET_MISSING',
      'No webhook secret given: pass the secret from POST /users/me/webhook-secret (a string, or an array during a rotation)',
    );
  return list;
}

function assertRawPayload(payload: unknown): asserts payload is string | Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return;
  const got = payload === null ? 'null' : Array.isArray(payload) ? 'an array' : typeof payload;
  throw new WebhookSignatureVerificationError(
    'PAYLOAD_NOT_RAW',
    `Webhook payload must be the raw request body as a string or Buffer, got ${got}: pass the raw request body, not the parsed JSON ` +
      "(in Express: express.raw({ type: 'application/json' }) on the webhook route). Parsing and re-serialising changes the bytes that were signed.",
  );
}

type ParsedHeader = { timestamp: number; signatures: string[] };

function parseHeader(header: ConstructEventParams['header']): { raw: string; parsed: ParsedHeader } {
  const raw = Array.isArray(header) ? header.join(',') : header;
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new WebhookSignatureVerificationError(
      'HEADER_MISSING',
      `No signature header: pass the request's X-Webhook-Signature header (req.headers['${SIGNATURE_HEADER}'])`,
    );
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of raw.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== undefined)
        throw new WebhookSignatureVerificationError(
          'HEADER_MALFORMED',
          `Signature header has a bad timestamp: expected one t=<unix seconds>, got "${raw}"`,
          raw,
        );
      timestamp = Number(value);
    } else if (key === 'v1') signatures.push(value);
  }
  if (timestamp === undefined)
    throw new WebhookSignatureVerificationError(
      'HEADER_MALFORMED',
      `Signature header has no timestamp: expected "t=<unix>,v1=<hex>", got "${raw}"`,
      raw,
    );
  if (signatures.length === 0)
    throw new WebhookSignatureVerificationError(
      'HEADER_MALFORMED',
      `Signature header has no v1= signature: expected "t=<unix>,v1=<hex>", got "${raw}"`,
      raw,
    );
  return { raw, parsed: { timestamp, signatures } };
}

/**
 * Checks the signature of a webhook and returns its event. Throws WebhookSignatureVerificationError
 * (with a `reason`) for a parsed instead of raw payload, a missing or malformed header, a signature
 * that matches none of the secrets, or a timestamp outside `tolerance` seconds of now.
 */
export function constructEvent(params: ConstructEventParams): WebhookEvent {
  const { payload, header } = params;
  assertRawPayload(payload);
  const secrets = secretsOf(params.secret);
  const { raw, parsed } = parseHeader(header);

  const given = parsed.signatures.filter((s) => HEX_SIGNATURE.test(s)).map((s) => Buffer.from(s, 'hex'));
  let matched = false;
  for (const secret of secrets) {
    const expected = sign(payload, secret, parsed.timestamp);
    for (const candidate of given)
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched)
    throw new WebhookSignatureVerificationError(
      'NO_MATCHING_SIGNATURE',
      `No v1 signature in the header matches the payload with the given secret${secrets.length > 1 ? 's' : ''}: ` +
        'check that the body is passed exactly as received and that the secret is the current one (during a rotation pass both)',
      raw,
    );

  const tolerance = params.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  const now = params.now ?? Math.floor(Date.now() / 1000);
  const age = now - parsed.timestamp;
  if (tolerance > 0 && Math.abs(age) > tolerance)
    throw new WebhookSignatureVerificationError(
      'TIMESTAMP_OUT_OF_TOLERANCE',
      `Timestamp t=${parsed.timestamp} is ${Math.abs(age)} s ${age >= 0 ? 'old' : 'in the future'}, outside the tolerance of ${tolerance} s ` +
        '(a replayed or long-delayed webhook, or a wrong clock)',
      raw,
    );

  const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new WebhookSignatureVerificationError(
      'PAYLOAD_NOT_JSON',
      'The signature is valid but the payload is not JSON',
      raw,
    );
  }
  if (typeof event !== 'object' || event === null || typeof (event as WebhookEvent).type !== 'string')
    throw new WebhookSignatureVerificationError(
      'PAYLOAD_NOT_JSON',
      'The signature is valid but the payload is not a webhook event',
      raw,
    );
  return event as WebhookEvent;
}

/** A valid X-Webhook-Signature for `payload`, for your own tests of your webhook endpoint. */
export function generateTestHeader(params: GenerateTestHeaderParams): string {
  assertRawPayload(params.payload);
  const secrets = secretsOf(params.secret);
  const timestamp = params.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isInteger(timestamp) || timestamp < 0)
    throw new TypeError('timestamp must be a non-negative integer (unix seconds)');
  const v1 = secrets.map((secret) => `v1=${sign(params.payload, secret, timestamp).toString('hex')}`);
  return [`t=${timestamp}`, ...v1].join(',');
}

export const webhooks = {
  constructEvent,
  generateTestHeader,
  SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
} as const;
