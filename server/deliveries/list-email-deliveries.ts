import type { EmailDelivery } from '../../contract';
import type { Deps } from '../deps';
import { BY_ID, rowsOfOrder } from './rows-of-order';

/** The e-mails to the customer of the merchant's order, oldest first (bodies left out: they are the customer's). */
export async function listEmailDeliveries(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  reference: string,
): Promise<{ items: EmailDelivery[] }> {
  const rows = await rowsOfOrder(deps, merchantId, reference, (orderId, limit) =>
    deps.db.models.EmailDelivery.findAll({
      attributes: ['id', 'kind', 'toAddress', 'subject', 'status', 'attempt', 'error', 'createdAt'],
      where: { orderId },
      order: [['createdAt', 'ASC'], ...BY_ID],
      limit,
    }),
  );
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
