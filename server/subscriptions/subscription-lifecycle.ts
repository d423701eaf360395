import type { SubscriptionStatus } from '../../contract';
import type { Subscription } from '../db/models';
import type { Lifecycle, Transition } from '../events/lifecycle';
import { emitSubscriptionEvent, type SubscriptionEventExtra } from './emit-subscription-event';

/**
 * Why a subscription's status may move: it was made; a period's order was made, paid, or expired
 * unpaid; the merchant paused or resumed it; it was canceled (by the merchant, at the end of its
 * period, or past due for too long). Which status a cause leads to the billing job and the routes
 * decide from the facts; which moves exist, and what each sends, this table says. Subscriptions
 * have no order timeline: their events (GET /events, webhooks) are their record.
 */
export type SubscriptionCause =
  'created' | 'order_made' | 'paid' | 'order_expired' | 'paused' | 'resumed' | 'canceled';

/** The statuses that bill (PAUSED and CANCELED make no order by themselves). */
export const BILLING_STATUSES: readonly SubscriptionStatus[] = [
  'INCOMPLETE',
  'TRIALING',
  'ACTIVE',
  'PAST_DUE',
];
const BILLING = BILLING_STATUSES;
const LIVE: readonly SubscriptionStatus[] = [...BILLING, 'PAUSED'];

export const SUBSCRIPTION_TRANSITIONS: readonly Transition<SubscriptionStatus, SubscriptionCause>[] = [
  { from: [], cause: 'created', to: 'INCOMPLETE', event: 'subscription.created', audit: null },
  { from: [], cause: 'created', to: 'TRIALING', event: 'subscription.created', audit: null },
  // A period's order: news, the status stays (ACTIVE until that order expires unpaid).
  ...BILLING.map((s) => ({
    from: [s],
    cause: 'order_made' as const,
    to: s,
    event: 'subscription.order_created' as const,
    audit: null,
  })),
  {
    from: ['INCOMPLETE', 'TRIALING', 'PAST_DUE'],
    cause: 'paid',
    to: 'ACTIVE',
    event: 'subscription.active',
    audit: null,
  },
  // Each period paid on time: ACTIVE already, no news (subscription.active is for moves into it).
  { from: ['ACTIVE'], cause: 'paid', to: 'ACTIVE', event: null, audit: null },
  {
    from: ['INCOMPLETE', 'TRIALING', 'ACTIVE'],
    cause: 'order_expired',
    to: 'PAST_DUE',
    event: 'subscription.past_due',
    audit: null,
  },
  // Remade again and expired again: still past due, and its grace keeps running.
  { from: ['PAST_DUE'], cause: 'order_expired', to: 'PAST_DUE', event: null, audit: null },
  { from: BILLING, cause: 'paused', to: 'PAUSED', event: 'subscription.paused', audit: null },
  ...(['INCOMPLETE', 'TRIALING', 'ACTIVE'] as const).map((to) => ({
    from: ['PAUSED'] as const,
    cause: 'resumed' as const,
    to,
    event: 'subscription.resumed' as const,
    audit: null,
  })),
  { from: LIVE, cause: 'canceled', to: 'CANCELED', event: 'subscription.canceled', audit: null },
];

export const SUBSCRIPTION_LIFECYCLE: Lifecycle<
  SubscriptionStatus,
  SubscriptionCause,
  Subscription,
  SubscriptionEventExtra
> = {
  name: 'subscription',
  table: 'subscriptions',
  transitions: SUBSCRIPTION_TRANSITIONS,
  auditStatus: false,
  emit: (deps, transaction, subscription, event, at, extra, actor) =>
    emitSubscriptionEvent(deps, transaction, subscription, event, at, extra, actor),
};
