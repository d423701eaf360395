import { MAX_ORDER_LIST_ITEMS, type Payment } from '../../contract';
import type { Deps } from '../deps';
import { findOrder } from '../orders/find-order';
import { presentPayment } from './present-payment';

/** The payments ledger of a merchant's order: every credited transfer, oldest first (the first MAX_ORDER_LIST_ITEMS). */
export async function listPayments(
  deps: Pick<Deps, 'db'>,
  input: { merchantId: string; reference: string },
): Promise<{ items: Payment[] }> {
  const { models } = deps.db;
  const order = await findOrder(models, { reference: input.reference, merchantId: input.merchantId });
  const claims = await models.PaymentClaim.findAll({
    where: { orderId: order.id, status: 'VERIFIED' },
    order: [['id', 'ASC']],
    limit: MAX_ORDER_LIST_ITEMS,
  });
  return { items: claims.map((claim) => presentPayment(claim, order)) };
}
