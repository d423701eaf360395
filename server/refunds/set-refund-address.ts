import type { PublicRefund } from '../../contract';
import { formatAmount } from '../../contract/decimal';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { applyTransition } from '../events/lifecycle';
import { optionOf } from '../orders/payment-options';
import { REFUND_LIFECYCLE } from './refund-lifecycle';
import { findPublicRefund } from './find-public-refund';
import { presentPublicRefund } from './present-public-refund';
import { proveRefundAddress, signatureApproves } from './prove-refund-address';
import { refundDeadline } from './refund-rules';

/**
 * The payer gives the address to refund to: once, checked as the network wants it. Anyone who knows
 * the refund id can call this, and anyone who knows the order's reference can become one of its
 * payers with a tagged transfer of one base unit, so the address is taken at once (PENDING) only
 * when signed by a wallet whose own payments cover the refund (proveRefundAddress); otherwise it
 * waits for the merchant's approval (AWAITING_APPROVAL) and nothing can be sent to it before. The
 * audit says who signed, what that wallet paid and why it was not enough. Either way the deadline
 * starts again and the merchant hears of it by `refund.created`, carrying the address and the status.
 */
export async function setRefundAddress(
  deps: Deps,
  input: { refundId: string; address: string; signature?: string },
): Promise<PublicRefund> {
  const { models, sequelize } = deps.db;
  const probe = await findPublicRefund(deps, input.refundId);
  const chain = deps.chains.get(probe.refund.network);
  const to = chain.normalizeAddress(input.address);
  if (!to) throw ApiError.field('body.address', chain.addressFormat);
  if (to === probe.refund.fromAddress)
    throw ApiError.field('body.address', "is the merchant's wallet: give the wallet you want the refund in");
  if (input.signature !== undefined && !chain.normalizeSignature(input.signature))
    throw ApiError.field('body.signature', chain.signatureFormat);
  assertTakesAddress(probe.refund);
  // Checked before any lock: a signature costs a key recovery, and proves nothing about the state.
  // Still true under the lock: a refund's amount and option never change, and a verified payment
  // stays verified (a sender's sum can only grow).
  const proof =
    input.signature === undefined
      ? null
      : await proveRefundAddress(deps, {
          refund: probe.refund,
          address: input.address,
          signature: input.signature,
        });
  const option = optionOf(probe.order, probe.refund.optionIndex);
  const format = (units: bigint) => formatAmount(units, option.decimals);

  await sequelize.transaction(async (transaction) => {
    // Order first, then refund: the same lock order as refund creation and verification.
    const order = await models.Order.findByPk(probe.order.id, { transaction, lock: transaction.LOCK.UPDATE });
    const refund = await models.Refund.findByPk(input.refundId, {
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!order || !refund) throw ApiError.notFound('Refund');
    assertTakesAddress(refund);
    const now = deps.clock();
    refund.toAddress = to;
    refund.addressSetAt = now;
    refund.deadlineAt = refundDeadline(now, deps.config.REFUND_DEADLINE_SECONDS);
    refund.nextCheckAt = now;
    const approval = proof && (await signatureApproves(deps, transaction, refund, proof, now));
    // Kept whether or not it approves: what the merchant then approves is the signer's too.
    if (proof) refund.signedBy = proof.signedBy;
    const status = approval?.approves ? 'PENDING' : 'AWAITING_APPROVAL';
    await applyTransition(deps, transaction, REFUND_LIFECYCLE, refund, {
      cause: 'address_given',
      to: status,
      actor: 'payer',
      data: {
        refundId: refund.id,
        to,
        signed: proof !== null,
        signedBy: proof?.signedBy ?? null,
        ...(proof &&
          approval && {
            signerPaid: format(proof.paidUnits),
            ...(!approval.approves && {
              reason: `the signing wallet paid ${format(proof.paidUnits)} ${option.token} on ${option.network} to this order${approval.leftUnits === proof.paidUnits ? '' : ` (${format(approval.leftUnits)} of it not yet refunded to it or to addresses it signed)`}, less than the refund's ${format(refund.amountUnits)}: the merchant approves the address`,
            }),
          }),
        status,
      },
      extra: { order },
    });
  });
  const { refund, order, merchantName } = await findPublicRefund(deps, input.refundId);
  return presentPublicRefund(deps, refund, order, merchantName);
}

/** An address is given once, while the refund waits for one (409 otherwise, awaiting approval included). */
function assertTakesAddress(refund: { toAddress: string | null; status: string }) {
  if (refund.toAddress !== null) throw ApiError.conflict('The refund address was already given');
  if (refund.status !== 'AWAITING_ADDRESS')
    throw ApiError.conflict(`The refund is ${refund.status} and takes no address`);
}
