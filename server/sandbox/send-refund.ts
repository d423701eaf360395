import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { buildRefundBody } from '../refunds/present-refund';
import { sandboxChains } from './sandbox-guard';

/**
 * Sends a PENDING refund as the merchant would from its own wallet: the service holds no keys, but
 * the sandbox holds its merchant's, so it signs the very transaction the refund shows and sends it.
 * The refund then SUCCEEDS by the usual on-chain verification, nothing here marks it.
 */
export async function sendRefund(
  deps: Deps,
  input: { merchantId: string; refundId: string },
): Promise<string> {
  const chains = sandboxChains(deps);
  const { models } = deps.db;
  const refund = await models.Refund.findByPk(input.refundId);
  const order = refund && (await models.Order.findByPk(refund.orderId));
  // Another merchant's refund is as unknown as a missing one.
  if (!refund || !order || order.merchantId !== input.merchantId) throw ApiError.notFound('Refund');
  if (refund.status !== 'PENDING')
    throw ApiError.conflict(`The refund is ${refund.status}: only a PENDING refund is sent`);
  const transaction = await buildRefundBody(deps, refund, order);
  if (!transaction)
    throw ApiError.upstream(`The ${refund.network} chain cannot be reached to build the refund`);
  const txId = await chains.sendRefund({ network: refund.network, from: refund.fromAddress, transaction });
  if (txId === null)
    throw ApiError.conflict("The order's receiving wallet is not one the sandbox holds the key of");
  return txId;
}
