import type { OrderEventType, OrderStatus } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Order } from '../db/models';
import { transitionOf, type Lifecycle, type Transition } from '../events/lifecycle';
import { emitOrderEvent, type EventExtra } from './emit-order-event';
import { markSubscriptionDue } from './mark-subscription-due';
import { queueCustomerEmail } from './queue-customer-email';

/**
 * Why an order's status may move: it was made; a transaction was reported for it; its time ran out;
 * and, once a claim on it is settled, a transfer was credited, or a report was rejected or recorded
 * unproven. Where a settled claim leaves the order (PAID, UNDERPAID, back to PENDING...) the facts
 * say (server/payments/status-from-facts.ts); which of those moves exist, and what each sends and
 * writes, this table says.
 */
export type OrderCause = 'created' | 'reported' | 'expired' | 'credited' | 'rejected' | 'unproven';

const ANY: readonly OrderStatus[] = ['PENDING', 'CONFIRMING', 'UNDERPAID', 'EXPIRED', 'PAID'];
const OPEN: readonly OrderStatus[] = ['PENDING', 'CONFIRMING', 'UNDERPAID', 'EXPIRED'];

/** A settled report that credits nothing: the order goes where the facts say, with this event. */
const dropped = (cause: 'rejected' | 'unproven', event: 'order.payment_rejected' | 'order.payment_claimed') =>
  [
    // Back to where it was before the report (or expired meanwhile): a change, but the news is the report's.
    { from: ['CONFIRMING'], cause, to: 'PENDING', event, audit: 'status.changed' },
    { from: ['CONFIRMING'], cause, to: 'UNDERPAID', event, audit: 'status.changed' },
    { from: ['CONFIRMING', 'PENDING', 'UNDERPAID'], cause, to: 'EXPIRED', event, audit: 'status.changed' },
    { from: ['PENDING', 'UNDERPAID', 'EXPIRED'], cause, to: 'CONFIRMING', event, audit: 'status.changed' },
    // Unchanged: other reports are still being checked, or it was never waiting for this one (a
    // scanner's match), or another payment paid it meanwhile.
    ...ANY.map((status) => ({ from: [status], cause, to: status, event, audit: null })),
  ] as const satisfies readonly Transition<OrderStatus, OrderCause>[];

export const ORDER_TRANSITIONS: readonly Transition<OrderStatus, OrderCause>[] = [
  { from: [], cause: 'created', to: 'PENDING', event: 'order.created', audit: 'order.created' },
  {
    from: ['PENDING', 'UNDERPAID', 'EXPIRED'],
    cause: 'reported',
    to: 'CONFIRMING',
    event: 'order.confirming',
    audit: 'status.changed',
  },
  // Reported again while waiting, or past expiry without proof (HOLDS_PAST_EXPIRY_SQL): nothing moves
  // (the report is in the timeline as tx.submitted).
  ...OPEN.map((status) => ({
    from: [status],
    cause: 'reported' as const,
    to: status,
    event: null,
    audit: null,
  })),
  {
    // CONFIRMING: only when nothing but a payer's unsigned report holds it (HOLDS_PAST_EXPIRY_SQL).
    from: ['PENDING', 'CONFIRMING', 'UNDERPAID'],
    cause: 'expired',
    to: 'EXPIRED',
    event: 'order.expired',
    audit: 'status.changed',
  },
  { from: OPEN, cause: 'credited', to: 'PAID', event: 'order.paid', audit: 'status.changed' },
  {
    from: ['PENDING', 'CONFIRMING'],
    cause: 'credited',
    to: 'UNDERPAID',
    event: 'order.underpaid',
    audit: 'status.changed',
  },
  // Credited after expiry and still short: news of a partial payment, the order stays expired.
  {
    from: ['PENDING', 'CONFIRMING', 'UNDERPAID'],
    cause: 'credited',
    to: 'EXPIRED',
    event: 'order.underpaid',
    audit: 'status.changed',
  },
  // Credited while other reports are still being checked (the order waits for them).
  {
    from: ['PENDING', 'UNDERPAID', 'EXPIRED'],
    cause: 'credited',
    to: 'CONFIRMING',
    event: 'order.underpaid',
    audit: 'status.changed',
  },
  // A further partial payment: news, no status change (CONFIRMING: other reports still checked).
  { from: ['UNDERPAID'], cause: 'credited', to: 'UNDERPAID', event: 'order.underpaid', audit: null },
  { from: ['CONFIRMING'], cause: 'credited', to: 'CONFIRMING', event: 'order.underpaid', audit: null },
  { from: ['EXPIRED'], cause: 'credited', to: 'EXPIRED', event: 'order.underpaid', audit: null },
  // More money on a paid order: in its ledger and timeline; PAID is final, and no news.
  { from: ['PAID'], cause: 'credited', to: 'PAID', event: null, audit: null },
  ...dropped('rejected', 'order.payment_rejected'),
  ...dropped('unproven', 'order.payment_claimed'),
];

/** What an order event carries beside the order, and the merchant when the caller holds it (saves a read). */
export type OrderEventExtra = { extra?: EventExtra; merchant?: MerchantRow };

export const ORDER_LIFECYCLE: Lifecycle<OrderStatus, OrderCause, Order, OrderEventExtra> = {
  name: 'order',
  table: 'orders',
  transitions: ORDER_TRANSITIONS,
  orderIdOf: (order) => order.id,
  auditStatus: true,
  emit: async (deps, transaction, order, event, at, with_, actor) => {
    await emitOrderEvent(
      deps,
      transaction,
      order,
      event as OrderEventType,
      at,
      with_?.merchant,
      with_?.extra,
      actor,
    );
    await markSubscriptionDue(deps, transaction, order, at);
    // Any order with a customer address gets its receipt, committed with the move to PAID.
    if (event === 'order.paid')
      await queueCustomerEmail(deps, transaction, order, {
        kind: 'receipt',
        ...(with_?.merchant ? { merchantName: with_.merchant.fullName } : {}),
      });
  },
};

/**
 * How an order is made: its status, event and timeline entry. Orders are written by one statement
 * of their own (server/orders/creation-statements.ts), which takes these from here.
 */
export const ORDER_CREATED = transitionOf(ORDER_LIFECYCLE, null, 'created', 'PENDING') as {
  to: 'PENDING';
  event: 'order.created';
  audit: 'order.created';
};
