import type { Order } from '../../contract';

const HEADLINES: Record<string, string> = {
  'order.created': '🧾 New payment order',
  'order.confirming': '⏳ Payment seen, waiting for finality',
  'order.paid': '✅ Payment received',
  'order.underpaid': '⚠️ Partial payment received',
  'order.expired': '⌛ Order expired without full payment',
  'order.payment_rejected': '❌ Reported payment rejected',
};

/** A plain-text message (no parse mode, so nothing needs escaping). */
export function messengerText(type: string, order: Order): string {
  const lines = [
    HEADLINES[type] ?? type,
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
