import type { Transaction } from 'sequelize';
import type { EmailKind } from '../../contract';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { queueOrderEmail } from '../emails/queue-order-email';
import { sharedOrderFields } from './present-order';

/**
 * Queues an e-mail about `order` to its customer (`customerEmail`, in `customerLanguage`, else
 * English) inside the caller's transaction: the receipt when it is PAID, a subscription's period
 * order and reminder. Null when the order has no customer address or the server sends no e-mail
 * (no SMTP_URL). The order is described as the payer sees it (its checkout link, amount, token).
 */
export async function queueCustomerEmail(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'chains'>,
  transaction: Transaction,
  order: Order,
  opts: {
    kind: EmailKind;
    /** The subscription's page for the customer, linked in the e-mail. */
    manageUrl?: string;
    /** The merchant's name when the caller holds it (saves a read). */
    merchantName?: string | null;
  },
): Promise<string | null> {
  if (!order.customerEmail || !deps.config.mail) return null;
  const merchantName =
    opts.merchantName !== undefined
      ? opts.merchantName
      : ((
          await deps.db.models.Merchant.findByPk(order.merchantId, {
            attributes: ['fullName'],
            transaction,
          })
        )?.fullName ?? null);
  return queueOrderEmail(deps, transaction, {
    orderId: order.id,
    merchantId: order.merchantId,
    kind: opts.kind,
    to: order.customerEmail,
    language: order.customerLanguage ?? 'en',
    merchantName,
    order: sharedOrderFields(deps, order, merchantName),
    ...(opts.manageUrl === undefined ? {} : { manageUrl: opts.manageUrl }),
  });
}
