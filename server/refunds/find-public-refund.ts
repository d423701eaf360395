import type { Deps } from '../deps';
import { ApiError } from '../errors';

/** A refund by its public id, with its order and the merchant's display name. */
export async function findPublicRefund(deps: Pick<Deps, 'db'>, refundId: string) {
  const { models } = deps.db;
  const refund = await models.Refund.findByPk(refundId);
  const order = refund && (await models.Order.findByPk(refund.orderId));
  if (!refund || !order) throw ApiError.notFound('Refund');
  const merchant = await models.Merchant.findByPk(order.merchantId, { attributes: ['fullName'] });
  return { refund, order, merchantName: merchant?.fullName ?? null };
}
