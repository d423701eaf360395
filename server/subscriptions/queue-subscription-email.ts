import type { Transaction } from 'sequelize';
import type { Subscription } from '../db/models';
import type { Deps } from '../deps';

/**
 * Mails the customer about one of the subscription's orders (`order`: a new period's order to
 * pay; `reminder`: it expires soon), through the e-mail outbox in the caller's transaction.
 * Nothing without an address or without SMTP.
 */
export async function queueSubscriptionEmail(
  _deps: Deps,
  _transaction: Transaction,
  subscription: Subscription,
  _orderId: string,
  _kind: 'order' | 'reminder',
): Promise<void> {
  if (!subscription.customerEmail) return;
  // Wired to the e-mail outbox when it lands (branch i30-email).
}
