import { MAX_ORDER_LIST_ITEMS, type Refund as RefundBody } from '../../contract';
import type { Deps } from '../deps';
import { findOrder } from '../orders/find-order';
import { buildRefundBody, presentRefund } from './present-refund';
import { OLDEST_FIRST } from '../db/order-by';

/** A merchant's order's refunds, oldest first (the first MAX_ORDER_LIST_ITEMS), each pending one with a fresh transaction. */
export async function listRefunds(
  deps: Pick<Deps, 'db' | 'config' | 'chains' | 'logger'>,
  input: { merchantId: string; reference: string },
): Promise<{ items: RefundBody[] }> {
  const { models } = deps.db;
  const order = await findOrder(models, { reference: input.reference, merchantId: input.merchantId });
  const refunds = await models.Refund.findAll({
    where: { orderId: order.id },
    order: OLDEST_FIRST,
    limit: MAX_ORDER_LIST_ITEMS,
  });
  const items = await Promise.all(
    refunds.map(async (refund) =>
      presentRefund(deps, refund, order, await buildRefundBody(deps, refund, order)),
    ),
  );
  return { items };
}
