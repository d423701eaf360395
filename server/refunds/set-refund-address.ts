import type { PublicRefund } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { recordAudit } from '../events/audit';
import { emitRefundEvent } from './emit-refund-event';
import { findPublicRefund } from './find-public-refund';
import { presentPublicRefund } from './present-public-refund';
import { refundDeadline } from './refund-rules';

/**
 * The payer gives the address to refund to: once, checked as the network wants it. The refund
 * becomes PENDING (its deadline starts again) and the merchant hears of it by `refund.created`,
 * now carrying status PENDING and the address.
 */
export async function setRefundAddress(
  deps: Deps,
  input: { refundId: string; address: string },
): Promise<PublicRefund> {
  const { models, sequelize } = deps.db;
  const probe = await findPublicRefund(deps, input.refundId);
  const chain = deps.chains.get(probe.refund.network);
  const to = chain.normalizeAddress(input.address);
  if (!to) throw ApiError.field('body.address', chain.addressFormat);
  if (to === probe.refund.fromAddress)
    throw ApiError.field('body.address', "is the merchant's wallet: give the wallet you want the refund in");

  await sequelize.transaction(async (transaction) => {
    // Order first, then refund: the same lock order as refund creation and verification.
    const order = await models.Order.findByPk(probe.order.id, { transaction, lock: transaction.LOCK.UPDATE });
    const refund = await models.Refund.findByPk(input.refundId, {
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!order || !refund) throw ApiError.notFound('Refund');
    if (refund.toAddress !== null) throw ApiError.conflict('The refund address was already given');
    if (refund.status !== 'AWAITING_ADDRESS')
      throw ApiError.conflict(`The refund is ${refund.status} and takes no address`);
    const now = deps.clock();
    refund.toAddress = to;
    refund.status = 'PENDING';
    refund.addressSetAt = now;
    refund.deadlineAt = refundDeadline(now, deps.config.REFUND_DEADLINE_SECONDS);
    refund.nextCheckAt = now;
    refund.updatedAt = now;
    await refund.save({ transaction });
    await recordAudit(
      deps.db,
      transaction,
      { orderId: order.id, type: 'refund.address_set', actor: 'payer', data: { refundId: refund.id, to } },
      now,
    );
    await emitRefundEvent(deps, transaction, order, refund, 'refund.created', now);
  });
  const { refund, order, merchantName } = await findPublicRefund(deps, input.refundId);
  return presentPublicRefund(deps, refund, order, merchantName);
}
