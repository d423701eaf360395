import type { EventType, Order, Payout, PayoutItem, Refund, Subscription } from '../../contract';

/** One per event type: a new type needs its headline (a ping included). */
const HEADLINES: Record<EventType, string> = {
  'order.created': '🧾 New payment order',
  'order.confirming': '⏳ Payment seen, waiting for finality',
  'order.paid': '✅ Payment received',
  'order.underpaid': '⚠️ Partial payment received',
  'order.expired': '⌛ Order expired without full payment',
  'order.payment_rejected': '❌ Reported payment rejected',
  'order.payment_claimed':
    '❓ Payment reported without proof: check it and attribute it if it is this order’s',
  'refund.created': '↩️ Refund created',
  'refund.succeeded': '✅ Refund sent and verified',
  'refund.failed': '❌ Refund failed',
  'subscription.created': '🔁 New subscription',
  'subscription.order_created': '🧾 Subscription order made for the period',
  'subscription.active': '✅ Subscription active',
  'subscription.past_due': '⚠️ Subscription past due: its order expired unpaid',
  'subscription.paused': '⏸️ Subscription paused',
  'subscription.resumed': '▶️ Subscription resumed',
  'subscription.canceled': '🛑 Subscription canceled',
  'member.invited': '✉️ Someone was invited to the account',
  'member.joined': '👋 A new member joined the account',
  'member.role_changed': "🔑 A member's role changed",
  'member.removed': '🚪 A member was removed from the account',
  'payout.created': '📤 New payout batch, waiting for approval',
  'payout.approved': '✅ Payout batch approved: ready to send',
  'payout.completed': '✅ Payout batch completed: every transfer verified',
  'payout.partial': '⚠️ Payout batch settled in part: some transfers failed',
  'payout.failed': '❌ Payout batch failed: no transfer verified',
  'payout.item_confirmed': '✅ Payout transfer verified',
  'payout.item_failed': '❌ Payout transfer failed',
  ping: '🔔 Test message from stablepay',
};

/**
 * The refund's lines of a refund event's message. Never its id nor its refundUrl: the id opens the
 * payer's refund page, where an address is given, and a chat is no place for it (the dashboard and
 * the signed webhook carry the link).
 */
function refundLines(refund: Refund): string[] {
  return [
    `Refund: ${refund.amount} ${refund.token} (${refund.status}${refund.late ? ', late' : ''})`,
    refund.to
      ? `To: ${refund.to}`
      : "Waiting for the payer's address: send them the refund page link from the dashboard",
    ...(refund.status === 'AWAITING_APPROVAL'
      ? [
          'The payer gave this address without proof from a wallet that paid the refunded amount: approve it in the dashboard',
        ]
      : []),
    ...(refund.reason ? [`Reason: ${refund.reason}`] : []),
    ...(refund.txId ? [`Transaction: ${refund.txId}`] : []),
    ...(refund.failureReason && refund.status === 'FAILED' ? [`Why: ${refund.failureReason}`] : []),
  ];
}

/** A plain-text message (no parse mode, so nothing needs escaping). */
export function messengerText(type: string, order: Order, refund?: Refund): string {
  const lines = [
    HEADLINES[type as EventType] ?? type,
    ...(refund ? refundLines(refund) : []),
    `${order.amount} ${order.token} on ${order.network}`,
    ...(order.quoteAmount ? [`(${order.quoteAmount} ${order.quoteCurrency})`] : []),
    `Status: ${order.status}${order.paidLate ? ' (paid late)' : ''}`,
    ...(order.amountReceived !== '0.000000' ? [`Received: ${order.amountReceived} ${order.token}`] : []),
    // Paid on another of its payment options than its first (older event versions do not say).
    ...(order.paidWith && (order.paidWith.network !== order.network || order.paidWith.token !== order.token)
      ? [`Paid with: ${order.paidWith.token} on ${order.paidWith.network}`]
      : []),
    `Reference: ${order.reference}`,
    ...(order.description ? [`Note: ${order.description}`] : []),
    `Checkout: ${order.checkoutUrl}`,
  ];
  return lines.join('\n');
}

/** The data of a stored event body, of any type. */
export type EventData = {
  order?: Order;
  refund?: Refund;
  subscription?: Subscription;
  payout?: Pick<Payout, 'id' | 'status' | 'itemCount'>;
  item?: Pick<PayoutItem, 'amount' | 'token' | 'network' | 'to' | 'status'>;
  message?: string;
};

/** A subscription's lines: who, what plan, where it stands. */
function subscriptionLines(subscription: Subscription): string[] {
  const price = subscription.amount
    ? `${subscription.amount} ${subscription.token}`
    : `${subscription.quoteAmount} ${subscription.quoteCurrency}`;
  const every =
    subscription.intervalCount === 1
      ? subscription.interval
      : `${subscription.intervalCount} ${subscription.interval}s`;
  return [
    `Subscription ${subscription.id}: ${price} every ${every} (${subscription.status})`,
    ...(subscription.customer.name || subscription.customer.email
      ? [`Customer: ${[subscription.customer.name, subscription.customer.email].filter(Boolean).join(' ')}`]
      : []),
  ];
}

/** The message of an event: an order, refund or subscription event's lines, or a test (`ping`) message. */
export function eventMessengerText(type: string, data: EventData): string {
  if (data.subscription)
    return [
      HEADLINES[type as EventType] ?? type,
      ...subscriptionLines(data.subscription),
      ...(data.order ? messengerText('', data.order).split('\n').slice(1) : []),
    ].join('\n');
  if (data.order) return messengerText(type, data.order, data.refund);
  if (data.payout)
    return [
      HEADLINES[type as EventType] ?? type,
      `Payout ${data.payout.id}: ${data.payout.itemCount} transfers (${data.payout.status})`,
      ...(data.item
        ? [
            `${data.item.amount} ${data.item.token} on ${data.item.network} to ${data.item.to} (${data.item.status})`,
          ]
        : []),
    ].join('\n');
  return [HEADLINES[type as EventType] ?? type, ...(data.message ? [data.message] : [])].join('\n');
}
