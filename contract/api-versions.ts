import { z } from 'zod';
import type { EventType } from './events';

/**
 * Versions of the event payload (webhooks, and every stored event body), oldest first. Each event
 * carries the version it was rendered at (`apiVersion`); a merchant's version is pinned when its
 * first webhook secret is created and moved with `PATCH /users/me {"webhook_api_version"}`.
 *
 * What makes a new version: a new event type (receivers that switch over the types they know break
 * on an unknown one: BTCPay Server issue #5806), removing or renaming a field, or changing what a
 * field means. What does not: a new field. The changes are listed in API_VERSION_CHANGES, and in
 * the README's changelog.
 */
export const API_VERSIONS = [
  '2025-01-01',
  '2026-11-24',
  '2026-11-27',
  '2026-11-29',
  '2026-12-01',
  '2026-12-03',
] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const LATEST_API_VERSION: ApiVersion = '2026-12-03';
/** The payload as it was before versions existed: merchants with a webhook secret then are pinned to it. */
export const FIRST_API_VERSION: ApiVersion = '2025-01-01';

export const ZApiVersion = z
  .enum(API_VERSIONS)
  .describe(`Event payload version (a date): ${API_VERSIONS.join(', ')}. Events carry it as \`apiVersion\``);

/** What each version changed, for people (the README's changelog says the same). */
export const API_VERSION_CHANGES: Record<ApiVersion, string> = {
  '2025-01-01':
    'The payload as it was before versions existed: the order and refund events (order.created, order.confirming, order.paid, order.underpaid, order.expired, order.payment_rejected, refund.created, refund.succeeded, refund.failed).',
  '2026-11-24':
    'Adds the event type `ping`, sent by POST /users/me/webhook-test and /users/me/messenger-test.',
  '2026-11-27':
    "Adds the event type `order.payment_claimed`: a payer reported a transfer that neither names the order nor pays its exact amount, without the sending wallet's signature; it credits nothing until the merchant attributes it.",
  '2026-11-29':
    "The payer's choice of network and token: the order in every event carries `paymentOptions` (the ways it may be paid) and `paidWith` (the network and token of its first credited payment), and a payment or claim its `token`. `amountReceived` sums every option's payments.",
  '2026-12-01':
    'Subscriptions: the event types `subscription.created`, `subscription.order_created`, `subscription.active`, `subscription.past_due`, `subscription.paused`, `subscription.resumed` and `subscription.canceled` (with `data.subscription`, and `data.order` when about an order); the order in every event carries `subscriptionId` and `period`, and `customerEmail` and `customerLanguage` (POST /orders takes them: the customer is mailed a receipt when it is paid, with SMTP_URL).',
  '2026-12-03':
    'Members and roles: the event types `member.invited`, `member.joined`, `member.role_changed` and `member.removed`, each naming who did it (`actor: "member"`, `memberId`, `memberEmail`), as every order, refund, subscription and payout event a person causes does (or `actor: "api_key"`, `apiKeyId`, `apiKeyName`); the order in every event carries `createdBy` (`{"memberId", "email"}`, `{"apiKeyId"}`, or null). Payouts: the event types `payout.created`, `payout.approved`, `payout.completed`, `payout.partial`, `payout.failed`, `payout.item_confirmed` and `payout.item_failed` (with `data.payout`, and `data.item` when about one item).',
};

/**
 * Fields of an event's `data` that a version introduced, by the object that carries them: an
 * event rendered at an earlier version leaves them out, so its receivers see the shape they know.
 */
export const EVENT_FIELDS_SINCE: Record<
  ApiVersion,
  Partial<Record<'order' | 'payment' | 'claim', string[]>>
> = {
  '2025-01-01': {},
  '2026-11-24': {},
  '2026-11-27': {},
  '2026-11-29': { order: ['paymentOptions', 'paidWith'], payment: ['token'], claim: ['token'] },
  '2026-12-01': { order: ['subscriptionId', 'period', 'customerEmail', 'customerLanguage'] },
  '2026-12-03': { order: ['createdBy'] },
};

/** The version that introduced each event type: a version knows the types introduced at or before it. */
export const EVENT_TYPE_SINCE: Record<EventType, ApiVersion> = {
  'order.created': '2025-01-01',
  'order.confirming': '2025-01-01',
  'order.paid': '2025-01-01',
  'order.underpaid': '2025-01-01',
  'order.expired': '2025-01-01',
  'order.payment_rejected': '2025-01-01',
  'order.payment_claimed': '2026-11-27',
  'refund.created': '2025-01-01',
  'refund.succeeded': '2025-01-01',
  'refund.failed': '2025-01-01',
  'subscription.created': '2026-12-01',
  'subscription.order_created': '2026-12-01',
  'subscription.active': '2026-12-01',
  'subscription.past_due': '2026-12-01',
  'subscription.paused': '2026-12-01',
  'subscription.resumed': '2026-12-01',
  'subscription.canceled': '2026-12-01',
  'member.invited': '2026-12-03',
  'member.joined': '2026-12-03',
  'member.role_changed': '2026-12-03',
  'member.removed': '2026-12-03',
  'payout.created': '2026-12-03',
  'payout.approved': '2026-12-03',
  'payout.completed': '2026-12-03',
  'payout.partial': '2026-12-03',
  'payout.failed': '2026-12-03',
  'payout.item_confirmed': '2026-12-03',
  'payout.item_failed': '2026-12-03',
  ping: '2026-11-24',
};

export const isApiVersion = (value: unknown): value is ApiVersion =>
  typeof value === 'string' && (API_VERSIONS as readonly string[]).includes(value);

/** Whether a merchant at `version` is sent events of `type` (versions are dates: they sort as text). */
export const versionKnowsEventType = (version: ApiVersion, type: EventType): boolean =>
  EVENT_TYPE_SINCE[type] <= version;
