/**
 * The events a merchant receives (webhooks, messenger, GET /events): their types, and the body of
 * each, told apart by `type`.
 */
import { z } from 'zod';
import { ZApiVersion } from './api-versions';
import { ZClaimedTransfer } from './claims';
import { ZDateTime, type ApiKeyScope } from './common';
import { ZInvitation, ZMember, ZMemberId } from './member-shapes';
import { ZOrder } from './orders';
import { ZRole } from './permissions';
import { ZPayout, ZPayoutItem } from './payouts';
import { ZPayment, ZRefund } from './refunds';
import { ZSubscription } from './subscriptions';

/** An event id as the service makes them (`evt_` and 32 hex digits), with room to spare. */
export const EVENT_ID_PATTERN = /^evt_[A-Za-z0-9]{1,60}$/;
export const ZEventId = z.string().max(64).regex(EVENT_ID_PATTERN, 'must be an event id (evt_…)');

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
export const SUBSCRIPTION_EVENT_TYPES = [
  'subscription.created',
  'subscription.order_created',
  'subscription.active',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'subscription.canceled',
] as const;
export const MEMBER_EVENT_TYPES = [
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
] as const;
export const PAYOUT_EVENT_TYPES = [
  'payout.created',
  'payout.approved',
  'payout.completed',
  'payout.partial',
  'payout.failed',
  'payout.item_confirmed',
  'payout.item_failed',
] as const;
/**
 * Every event type. A new type is a new API version (contract/api-versions.ts): merchants are sent
 * only the types their version knows.
 */
export const EVENT_TYPES = [
  ...ORDER_EVENT_TYPES,
  ...REFUND_EVENT_TYPES,
  ...SUBSCRIPTION_EVENT_TYPES,
  ...MEMBER_EVENT_TYPES,
  ...PAYOUT_EVENT_TYPES,
  'ping',
] as const;
export const ZEventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof ZEventType>;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];
export type RefundEventType = (typeof REFUND_EVENT_TYPES)[number];
export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENT_TYPES)[number];
export type MemberEventType = (typeof MEMBER_EVENT_TYPES)[number];
export type PayoutEventType = (typeof PAYOUT_EVENT_TYPES)[number];

/** The family of an event type: what its type says before the dot (`ping` is its own). */
type EventFamily = EventType extends infer T ? (T extends `${infer F}.${string}` ? F : T) : never;

/**
 * Which events an API key is shown, by family: the scope it needs beside the one of the route that
 * shows them (orders:read for GET /events and the webhook and messenger deliveries, orders:write
 * for a redelivery, which answers with the event's body). Null: the route's scope is enough. A
 * subscription's events carry the subscription, its `manageUrl` (the customer's credential)
 * included, so they need subscriptions:read as GET /subscriptions does. The login token (the
 * dashboard) is shown every event. A new family names its scope here.
 */
const EVENT_FAMILY_SCOPES: Record<EventFamily, ApiKeyScope | null> = {
  order: null,
  refund: null,
  ping: null,
  subscription: 'subscriptions:read',
  // The account's people and their e-mails: as GET /users/me shows the account.
  member: 'account:read',
  payout: 'payouts:read',
};

/** What the routes that show events say of EVENT_FAMILY_SCOPES. */
export const EVENT_SCOPES_NOTE =
  "An API key is shown a subscription's events (`subscription.*`, which carry the customer's `manageUrl`) only if it holds subscriptions:read as well, the members' (`member.*`) only with account:read, and a payout's (`payout.*`) only with payouts:read; order, refund and ping events need only the route's scope. The login token (the dashboard) is shown every event.";

/** The scope an API key needs, beside the route's, to be shown an event of this type (null: none). */
export const eventTypeScope = (type: EventType): ApiKeyScope | null =>
  EVENT_FAMILY_SCOPES[type.split('.')[0] as EventFamily];

/** What every event body starts with. */
const envelope = <T extends EventType>(type: T) => ({
  id: ZEventId.describe('evt_…: the same on every attempt (X-Webhook-Id); de-duplicate on it'),
  type: z.literal(type),
  apiVersion: ZApiVersion,
  createdAt: ZDateTime,
});

/** Who did it: a member, named (every event a person causes says so). */
const ZMemberActor = {
  actor: z.literal('member'),
  memberId: ZMemberId.describe('The member who did it'),
  memberEmail: z.string().max(254),
};

/**
 * Who caused an order, refund, subscription or payout event, when a person did (absent when the
 * payer or the service did): `actor: "member"` with `memberId` and `memberEmail`, or
 * `actor: "api_key"` with `apiKeyId` and `apiKeyName`.
 */
const ZCallerActor = {
  actor: z.enum(['member', 'api_key']).optional().describe('Who caused it, when a person did'),
  memberId: ZMemberActor.memberId.optional(),
  memberEmail: ZMemberActor.memberEmail.optional(),
  apiKeyId: z.string().uuid().max(36).optional().describe('The API key that did it'),
  apiKeyName: z.string().max(100).optional(),
};

/**
 * The order as events carry it: its payment options and paidWith since API version 2026-11-29
 * (events rendered at an earlier version, or stored before, leave them out); the customer's e-mail
 * and language, its source and maker are absent from events stored before they existed.
 */
const ZEventOrder = ZOrder.extend({
  paymentOptions: ZOrder.shape.paymentOptions.optional(),
  paidWith: ZOrder.shape.paidWith.optional(),
  subscriptionId: ZOrder.shape.subscriptionId.optional(),
  period: ZOrder.shape.period.optional(),
  customerEmail: ZOrder.shape.customerEmail.optional(),
  customerLanguage: ZOrder.shape.customerLanguage.optional(),
  source: ZOrder.shape.source.optional(),
  createdBy: ZOrder.shape.createdBy.optional(),
});
/** A credited transfer as events carry it: its token since API version 2026-11-29. */
const ZEventPayment = ZPayment.extend({ token: ZPayment.shape.token.optional() });

/** A payout event: the batch as it was (without items), and the item it is about (API version 2026-12-03 on). */
const payoutEvent = <T extends PayoutEventType>(type: T) =>
  z
    .object({
      ...envelope(type),
      data: z.object({
        payout: ZPayout.omit({ items: true }),
        item: ZPayoutItem.optional(),
        ...ZCallerActor,
      }),
    })
    .describe(`The body of a \`${type}\` event (API version 2026-12-03 on)`);

/** An order event: the order as it was when the event happened, with the credited transfer that caused it. */
const orderEvent = <T extends OrderEventType>(type: T) =>
  z
    .object({
      ...envelope(type),
      data: z.object({
        order: ZEventOrder,
        // The credited transfer that caused the event, if one did.
        payment: ZEventPayment.optional(),
        ...ZCallerActor,
      }),
    })
    .describe(`The body of a \`${type}\` event`);

export const ZPaymentClaimedEvent = z
  .object({
    ...envelope('order.payment_claimed'),
    data: z.object({
      order: ZEventOrder,
      claim: ZClaimedTransfer.extend({ token: ZClaimedTransfer.shape.token.optional() }),
      ...ZCallerActor,
    }),
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
      data: z.object({ order: ZEventOrder, refund: ZRefund, ...ZCallerActor }),
    })
    .describe(`The body of a \`${type}\` event`);

/** A subscription event: the subscription as it was (API version 2026-12-01 on). */
const subscriptionEvent = <T extends SubscriptionEventType>(type: T) =>
  z
    .object({ ...envelope(type), data: z.object({ subscription: ZSubscription, ...ZCallerActor }) })
    .describe(`The body of a \`${type}\` event (API version 2026-12-01 on)`);

/** A subscription event about one of its orders: the subscription and that order. */
const subscriptionOrderEvent = <T extends SubscriptionEventType>(type: T) =>
  z
    .object({
      ...envelope(type),
      data: z.object({ subscription: ZSubscription, order: ZEventOrder, ...ZCallerActor }),
    })
    .describe(`The body of a \`${type}\` event, with the order it is about (API version 2026-12-01 on)`);

/** A member event: the member it is about (or the invitation), and who did it (API version 2026-12-03 on). */
const memberEvent = <T extends Exclude<MemberEventType, 'member.invited'>>(type: T) =>
  z
    .object({
      ...envelope(type),
      data: z.object({
        member: ZMember,
        previousRole: ZRole.optional().describe('member.role_changed: the role before'),
        ...ZMemberActor,
      }),
    })
    .describe(`The body of a \`${type}\` event (API version 2026-12-03 on)`);

export const ZMemberInvitedEvent = z
  .object({
    ...envelope('member.invited'),
    data: z.object({ invitation: ZInvitation.omit({ link: true }), ...ZMemberActor }),
  })
  .describe(
    'The body of a `member.invited` event: who was invited, with what role, by whom (API version 2026-12-03 on)',
  );

/** The order an event is about, if any (a subscription's own events and a ping have none). */
export const eventOrderOf = (event: WebhookEventBody) =>
  'order' in event.data ? event.data.order : undefined;

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
  'subscription.created': subscriptionEvent('subscription.created'),
  'subscription.order_created': subscriptionOrderEvent('subscription.order_created'),
  'subscription.active': subscriptionOrderEvent('subscription.active'),
  'subscription.past_due': subscriptionOrderEvent('subscription.past_due'),
  'subscription.paused': subscriptionEvent('subscription.paused'),
  'subscription.resumed': subscriptionEvent('subscription.resumed'),
  'subscription.canceled': subscriptionEvent('subscription.canceled'),
  'member.invited': ZMemberInvitedEvent,
  'member.joined': memberEvent('member.joined'),
  'member.role_changed': memberEvent('member.role_changed'),
  'member.removed': memberEvent('member.removed'),
  'payout.created': payoutEvent('payout.created'),
  'payout.approved': payoutEvent('payout.approved'),
  'payout.completed': payoutEvent('payout.completed'),
  'payout.partial': payoutEvent('payout.partial'),
  'payout.failed': payoutEvent('payout.failed'),
  'payout.item_confirmed': payoutEvent('payout.item_confirmed'),
  'payout.item_failed': payoutEvent('payout.item_failed'),
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
  WEBHOOK_EVENT_SCHEMAS['subscription.created'],
  WEBHOOK_EVENT_SCHEMAS['subscription.order_created'],
  WEBHOOK_EVENT_SCHEMAS['subscription.active'],
  WEBHOOK_EVENT_SCHEMAS['subscription.past_due'],
  WEBHOOK_EVENT_SCHEMAS['subscription.paused'],
  WEBHOOK_EVENT_SCHEMAS['subscription.resumed'],
  WEBHOOK_EVENT_SCHEMAS['subscription.canceled'],
  WEBHOOK_EVENT_SCHEMAS['member.invited'],
  WEBHOOK_EVENT_SCHEMAS['member.joined'],
  WEBHOOK_EVENT_SCHEMAS['member.role_changed'],
  WEBHOOK_EVENT_SCHEMAS['member.removed'],
  WEBHOOK_EVENT_SCHEMAS['payout.created'],
  WEBHOOK_EVENT_SCHEMAS['payout.approved'],
  WEBHOOK_EVENT_SCHEMAS['payout.completed'],
  WEBHOOK_EVENT_SCHEMAS['payout.partial'],
  WEBHOOK_EVENT_SCHEMAS['payout.failed'],
  WEBHOOK_EVENT_SCHEMAS['payout.item_confirmed'],
  WEBHOOK_EVENT_SCHEMAS['payout.item_failed'],
  WEBHOOK_EVENT_SCHEMAS.ping,
]);
export type WebhookEventBody = z.infer<typeof ZWebhookEvent>;
