import type { PayoutEventType, PayoutItemStatus, PayoutStatus } from '../../contract';
import type { Payout, PayoutItem } from '../db/models';
import type { Lifecycle, Transition } from '../events/lifecycle';
import { emitPayoutEvent } from './emit-payout-event';

/**
 * Why a batch's status moves: a member made it, enough members approved it, a member canceled it,
 * a transaction was reported for it, every item settled. The trail entries are the batch's own
 * (payout-audit.ts: they name the member), not an order's timeline: `audit` is null here.
 */
export type PayoutCause = 'created' | 'approved' | 'canceled' | 'reported' | 'settled';

export const PAYOUT_TRANSITIONS: readonly Transition<PayoutStatus, PayoutCause>[] = [
  { from: [], cause: 'created', to: 'DRAFT', event: 'payout.created', audit: null },
  { from: ['DRAFT'], cause: 'approved', to: 'APPROVED', event: 'payout.approved', audit: null },
  { from: ['DRAFT', 'APPROVED'], cause: 'canceled', to: 'CANCELED', event: null, audit: null },
  { from: ['APPROVED'], cause: 'reported', to: 'SENDING', event: null, audit: null },
  {
    from: ['APPROVED', 'SENDING'],
    cause: 'settled',
    to: 'COMPLETED',
    event: 'payout.completed',
    audit: null,
  },
  { from: ['APPROVED', 'SENDING'], cause: 'settled', to: 'PARTIAL', event: 'payout.partial', audit: null },
  { from: ['APPROVED', 'SENDING'], cause: 'settled', to: 'FAILED', event: 'payout.failed', audit: null },
];

export const PAYOUT_LIFECYCLE: Lifecycle<PayoutStatus, PayoutCause, Payout> = {
  name: 'payout',
  table: 'payouts',
  transitions: PAYOUT_TRANSITIONS,
  auditStatus: false,
  emit: (deps, transaction, payout, event, at, _extra, actor) =>
    emitPayoutEvent(deps, transaction, payout, event as PayoutEventType, at, undefined, actor),
};

/**
 * An item: SENT when a transaction is reported for its network, CONFIRMED when a final one pays it
 * exactly, FAILED when a final one that names it pays something else, or at the deadline.
 */
export type PayoutItemCause = 'reported' | 'verified' | 'rejected' | 'deadline';

export const PAYOUT_ITEM_TRANSITIONS: readonly Transition<PayoutItemStatus, PayoutItemCause>[] = [
  { from: ['PENDING'], cause: 'reported', to: 'SENT', event: null, audit: null },
  {
    from: ['PENDING', 'SENT'],
    cause: 'verified',
    to: 'CONFIRMED',
    event: 'payout.item_confirmed',
    audit: null,
  },
  { from: ['PENDING', 'SENT'], cause: 'rejected', to: 'FAILED', event: 'payout.item_failed', audit: null },
  { from: ['PENDING', 'SENT'], cause: 'deadline', to: 'FAILED', event: 'payout.item_failed', audit: null },
];

/** An item's event carries its batch. */
export const PAYOUT_ITEM_LIFECYCLE: Lifecycle<PayoutItemStatus, PayoutItemCause, PayoutItem, Payout> = {
  name: 'payout item',
  table: 'payout_items',
  transitions: PAYOUT_ITEM_TRANSITIONS,
  auditStatus: false,
  emit: (deps, transaction, item, event, at, payout, actor) => {
    if (!payout) throw new Error(`payout item ${item.id}: an event needs its batch`);
    return emitPayoutEvent(deps, transaction, payout, event as PayoutEventType, at, item, actor);
  },
};
