import type { Transaction } from 'sequelize';
import type { Subscription } from '../db/models';
import type { Deps } from '../deps';
import { queueCustomerEmail } from '../orders/queue-customer-email';
import { manageUrlOf } from './present-subscription';

/**
 * Mails the customer about one of the subscription's orders (`order`: a new period's order to
 * pay; `reminder`: it expires soon), with their page's link, through the e-mail outbox in the
 * caller's transaction. Nothing without an address or without SMTP (the receipt, when paid, is
 * every order's: orders/order-lifecycle.ts).
 */
export async function queueSubscriptionEmail(
  deps: Deps,
  transaction: Transaction,
  subscription: Subscription,
  orderId: string,
  kind: 'order' | 'reminder',
): Promise<void> {
  if (!subscription.customerEmail || !deps.config.mail) return;
  const order = await deps.db.models.Order.findByPk(orderId, { transaction });
  if (!order) return;
  await queueCustomerEmail(deps, transaction, order, { kind, manageUrl: manageUrlOf(deps, subscription) });
}
