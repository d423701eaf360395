import type { RefundStatus } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Order, Refund } from '../db/models';
import type { Lifecycle, Transition } from '../events/lifecycle';
import { emitRefundEvent, type RefundEventType } from './emit-refund-event';

/**
 * Why a refund's status moves: the merchant made it (with an address, or asking the payer for one);
 * the payer gave an address (signed by a wallet whose payments cover the refund, or not); the
 * merchant approved one that was not; its transfer was verified on chain (also late, while a failed refund still holds
 * its amount); its deadline passed without one.
 */
export type RefundCause = 'created' | 'address_given' | 'approved' | 'verified' | 'deadline';

export const REFUND_TRANSITIONS: readonly Transition<RefundStatus, RefundCause>[] = [
  { from: [], cause: 'created', to: 'PENDING', event: 'refund.created', audit: 'refund.created' },
  { from: [], cause: 'created', to: 'AWAITING_ADDRESS', event: 'refund.created', audit: 'refund.created' },
  // The integrations hear of the address by refund.created again, with the status it now has.
  {
    from: ['AWAITING_ADDRESS'],
    cause: 'address_given',
    to: 'PENDING',
    event: 'refund.created',
    audit: 'refund.address_set',
  },
  {
    from: ['AWAITING_ADDRESS'],
    cause: 'address_given',
    to: 'AWAITING_APPROVAL',
    event: 'refund.created',
    audit: 'refund.address_set',
  },
  {
    from: ['AWAITING_APPROVAL'],
    cause: 'approved',
    to: 'PENDING',
    event: 'refund.created',
    audit: 'refund.approved',
  },
  // A FAILED refund's transfer landing in its late window counts (refundHoldsAmount).
  {
    from: ['PENDING', 'FAILED'],
    cause: 'verified',
    to: 'SUCCEEDED',
    event: 'refund.succeeded',
    audit: 'refund.succeeded',
  },
  {
    from: ['AWAITING_ADDRESS', 'AWAITING_APPROVAL', 'PENDING'],
    cause: 'deadline',
    to: 'FAILED',
    event: 'refund.failed',
    audit: 'refund.failed',
  },
];

/** A refund event carries its order (and the merchant, when the caller holds it: saves a read). */
export type RefundEventContext = { order: Order; merchant?: MerchantRow };

export const REFUND_LIFECYCLE: Lifecycle<RefundStatus, RefundCause, Refund, RefundEventContext> = {
  name: 'refund',
  table: 'refunds',
  transitions: REFUND_TRANSITIONS,
  orderIdOf: (refund) => refund.orderId,
  auditStatus: false,
  emit: (deps, transaction, refund, event, at, context, actor) => {
    if (!context) throw new Error(`refund ${refund.id}: an event needs its order`);
    return emitRefundEvent(
      deps,
      transaction,
      context.order,
      refund,
      event as RefundEventType,
      at,
      context.merchant,
      actor,
    );
  },
};
