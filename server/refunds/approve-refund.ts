import type { Refund as RefundBody } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import type { Caller } from '../events/actor';
import { applyTransition } from '../events/lifecycle';
import { findOrder } from '../orders/find-order';
import { REFUND_LIFECYCLE } from './refund-lifecycle';
import { buildRefundBody, presentRefund } from './present-refund';
import { refundDeadline } from './refund-rules';

/**
 * The merchant approves the address the payer gave without proof: its word that the address is the
 * payer's. The refund becomes PENDING, sendable from now (an untagged transfer before this cannot
 * be it: nothing linked to the address before), with a new deadline, audited with who approved it,
 * and `refund.created` tells the integrations it can be sent.
 */
export async function approveRefund(
  deps: Deps,
  input: { merchant: MerchantRow; reference: string; refundId: string; by: Caller },
): Promise<RefundBody> {
  const { models, sequelize } = deps.db;
  const where = { reference: input.reference, merchantId: input.merchant.id };
  await sequelize.transaction(async (transaction) => {
    // Order first, then refund: the one lock order of every refund change.
    const order = await findOrder(models, where, { transaction, lock: true });
    const refund = await models.Refund.findOne({
      where: { id: input.refundId, orderId: order.id },
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!refund) throw ApiError.notFound('Refund');
    if (refund.status !== 'AWAITING_APPROVAL')
      throw ApiError.conflict(`The refund is ${refund.status}: only a refund AWAITING_APPROVAL is approved`);
    const now = deps.clock();
    refund.addressSetAt = now;
    refund.deadlineAt = refundDeadline(now, deps.config.REFUND_DEADLINE_SECONDS);
    refund.nextCheckAt = now;
    await applyTransition(deps, transaction, REFUND_LIFECYCLE, refund, {
      cause: 'approved',
      to: 'PENDING',
      actor: input.by,
      data: { refundId: refund.id, to: refund.toAddress },
      extra: { order, merchant: input.merchant },
    });
  });
  const order = await findOrder(models, where);
  const refund = await models.Refund.findByPk(input.refundId);
  if (!refund) throw ApiError.notFound('Refund');
  return presentRefund(deps, refund, order, await buildRefundBody(deps, refund, order));
}
