import type { Transaction } from 'sequelize';
import type { Deps } from '../deps';
import { queueEmail } from './queue-email';
import { renderOrderEmail, type OrderMail } from './render-order-email';

/** An e-mail about an order to queue: what it says, and to whom. */
export type OrderEmail = OrderMail & {
  /** The order's row id (orders.id) and its merchant. */
  orderId: string;
  merchantId: string;
  to: string;
};

/**
 * Renders an e-mail about an order in the customer's language (render-order-email.ts) and queues
 * it in the caller's transaction (queue-email.ts). The one call for receipts, a subscription's
 * period order and its reminder. Null, and nothing rendered, when the server sends no e-mail.
 */
export async function queueOrderEmail(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  transaction: Transaction | null,
  mail: OrderEmail,
): Promise<string | null> {
  if (!deps.config.mail) return null;
  const rendered = renderOrderEmail(mail);
  return queueEmail(deps, transaction, {
    orderId: mail.orderId,
    merchantId: mail.merchantId,
    kind: mail.kind,
    to: mail.to,
    language: mail.language,
    ...rendered,
  });
}
