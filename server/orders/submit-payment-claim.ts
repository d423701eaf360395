import { UniqueConstraintError } from 'sequelize';
import type { Order } from '../db/models';
import type { ClaimSource } from '../db/models/payment-claim';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { recordAudit } from '../events/audit';
import { changeOrderStatus } from './change-order-status';
import { findOrder } from './find-order';

/** Whether an order can still be paid: not PAID, and not past the late-payment window. */
export function assertPayable(order: Order, now: Date, lateWindowSeconds: number) {
  if (order.status === 'PAID') throw ApiError.conflict('Order is already paid');
  const lateUntil = order.expiresAt.getTime() + lateWindowSeconds * 1000;
  if (now.getTime() > lateUntil) throw ApiError.conflict('Order expired and is past its late-payment window');
}

/**
 * Records a reported transaction id as a claim to verify against the chain. A claim is never
 * trusted: the order moves to CONFIRMING, and only the verifier may make it PAID. Re-reporting the
 * same id for the same order is accepted once; an id already claimed by another order is a 409,
 * enforced by a unique index rather than a check-then-insert.
 */
export async function submitPaymentClaim(
  deps: Pick<Deps, 'db' | 'chains' | 'clock' | 'config'>,
  input: { reference: string; merchantId?: string; txId: string; source: Exclude<ClaimSource, 'scanner'> },
): Promise<Order> {
  const { models, sequelize } = deps.db;
  const probe = await findOrder(models, { reference: input.reference, merchantId: input.merchantId });
  // EVM hashes are hex, so case-insensitive: one canonical (lower-case) form, or the unique index
  // on (network, tx_id) would let one transaction claim two orders by changing its case.
  const txId = probe.network === 'SOLANA' ? input.txId : input.txId.toLowerCase();
  if (!deps.chains.get(probe.network).isWellFormedTxId(txId))
    throw ApiError.field(
      'body.txId',
      probe.network === 'SOLANA'
        ? 'must be a base58 transaction signature (64 bytes)'
        : 'must be a 0x transaction hash (64 hex digits)',
    );

  try {
    return await sequelize.transaction(async (transaction) => {
      const order = await findOrder(models, { reference: input.reference }, { transaction, lock: true });
      const now = deps.clock();
      const existing = await models.PaymentClaim.findOne({
        where: { network: order.network, txId },
        order: [['id', 'DESC']],
        transaction,
      });
      if (existing && existing.orderId !== order.id && existing.status !== 'REJECTED')
        throw ApiError.conflict('This transaction was already submitted for another order');
      if (existing && existing.orderId === order.id && existing.status !== 'REJECTED') return order;
      assertPayable(order, now, deps.config.LATE_PAYMENT_WINDOW_SECONDS);

      await models.PaymentClaim.create(
        {
          orderId: order.id,
          network: order.network,
          txId,
          source: input.source,
          createdAt: now,
          updatedAt: now,
        },
        { transaction },
      );
      const actor = input.source;
      // Where no verifier exists yet (EVM), the claim is kept for when one does, but the order is
      // not put on hold: CONFIRMING would say a check is under way, and would stop it expiring.
      const verifiable = deps.chains.get(order.network).verifiesPayments;
      await recordAudit(
        models,
        transaction,
        {
          orderId: order.id,
          type: 'tx.submitted',
          actor,
          data: verifiable ? { txId } : { txId, verification: `not available on ${order.network} yet` },
        },
        now,
      );
      if (verifiable && order.status !== 'CONFIRMING')
        await changeOrderStatus(deps, transaction, order, {
          to: 'CONFIRMING',
          actor,
          reason: 'transaction reported, awaiting on-chain verification',
          data: { txId },
        });
      return order;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError)
      throw ApiError.conflict('This transaction was already submitted for another order');
    throw error;
  }
}
