import type { Order, Refund } from '../../contract';

const HEADLINES: Record<string, string> = {
  'order.created': '🧾 New payment order',
  'order.confirming': '⏳ Payment seen, waiting for finality',
  'order.paid': '✅ Payment received',
  'order.underpaid': '⚠️ Partial payment received',
  'order.expired': '⌛ Order expired without full payment',
  'order.payment_rejected': '❌ Reported payment rejected',
  'refund.created': '↩️ Refund created',
  'refund.succeeded': '✅ Refund sent and verified',
  'refund.failed': '❌ Refund failed',
};

/** The refund's lines of a refund event's message. */
function refundLines(refund: Refund): string[] {
  return [
    `Refund: ${refund.amount} ${refund.token} (${refund.status})`,
    refund.to ? `To: ${refund.to}` : `Waiting for the payer's address: ${refund.refundUrl}`,
    ...(refund.reason ? [`Reason: ${refund.reason}`] : []),
    ...(refund.txId ? [`Transaction: ${refund.txId}`] : []),
    ...(refund.failureReason ? [`Why: ${refund.failureReason}`] : []),
  ];
}

/** A plain-text message (no parse mode, so nothing needs escaping). */
export function messengerText(type: string, order: Order, refund?: Refund): string {
  const lines = [
    HEADLINES[type] ?? type,
    ...(refund ? refundLines(refund) : []),
    `${order.amount} ${order.token} on ${order.network}`,
    ...(order.quoteAmount ? [`(${order.quoteAmount} ${order.quoteCurrency})`] : []),
    `Status: ${order.status}${order.paidLate ? ' (paid late)' : ''}`,
    ...(order.amountReceived !== '0.000000' ? [`Received: ${order.amountReceived} ${order.token}`] : []),
    `Reference: ${order.reference}`,
    ...(order.description ? [`Note: ${order.description}`] : []),
    `Checkout: ${order.checkoutUrl}`,
  ];
  return lines.join('\n');
}
