import { MAX_ORDER_LIST_ITEMS, type EmailDelivery } from '../../contract';
import type { Deps } from '../deps';
import { findOrder } from '../orders/find-order';

/** The e-mails to the customer of the merchant's order, oldest first (bodies left out: they are the customer's). */
export async function listEmailDeliveries(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  reference: string,
): Promise<{ items: EmailDelivery[] }> {
  const order = await findOrder(deps.db.models, { reference, merchantId });
  const rows = await deps.db.models.EmailDelivery.findAll({
    attributes: ['id', 'kind', 'toAddress', 'subject', 'status', 'attempt', 'error', 'createdAt'],
    where: { orderId: order.id },
    order: [
      ['createdAt', 'ASC'],
      ['id', 'ASC'],
    ],
    limit: MAX_ORDER_LIST_ITEMS,
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      to: row.toAddress,
      subject: row.subject,
      status: row.status,
      attempt: row.attempt,
      error: row.error,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
