import { UniqueConstraintError } from 'sequelize';
import type { Order } from '../db/models';
import type { ClaimSource } from '../db/models/payment-claim';
import type { Deps } from '../deps';
import { ErrorCode } from '../../contract';
import { ApiError } from '../errors';
import { actingKeyData, recordAudit, type ActingKey } from '../events/audit';
import { changeOrderStatus } from './change-order-status';
import { findOrder } from './find-order';
import { wakeJob } from '../db/wake-up';
import { assertPayable } from './payable';

/** Reported transactions a payer may have under check for one order at a time. */
export const MAX_OPEN_PAYER_CLAIMS = 3;

/**
 * Records a reported transaction id as a claim to verify against the chain. A claim is never
 * trusted: the order moves to CONFIRMING, and only the verifier may make it PAID. Re-reporting the
 * same id for the same order is accepted once; an id already claimed by another order is a 409,
 * enforced by a unique index rather than a check-then-insert.
 */
export async function submitPaymentClaim(
  deps: Pick<Deps, 'db' | 'chains' | 'clock' | 'config'>,
  input: {
    reference: string;
    merchantId?: string;
    txId: string;
    source: Exclude<ClaimSource, 'scanner'>;
    /** The API key of a merchant's report. */
    actingKey?: ActingKey;
  },
): Promise<Order> {
  const { models, sequelize } = deps.db;
  const probe = await findOrder(models, { reference: input.reference, merchantId: input.merchantId });
  const chain = deps.chains.get(probe.network);
  // The canonical form (EVM: lower case), so the unique index on (network, tx_id) sees one
  // transaction however its id is written.
  const txId = chain.normalizeTxId(input.txId);
  if (!txId) throw ApiError.field('body.txId', chain.txIdFormat);

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
      assertPayable(order, { now, lateWindowSeconds: deps.config.LATE_PAYMENT_WINDOW_SECONDS });
      // Anyone may report on the public route: made-up ids must not pile up checks on the chain.
      if (input.source === 'payer') {
        const open = await models.PaymentClaim.count({
          where: { orderId: order.id, status: 'PENDING', source: 'payer' },
          transaction,
        });
        if (open >= MAX_OPEN_PAYER_CLAIMS)
          throw new ApiError(
            ErrorCode.RATE_LIMITED,
            `This order already has ${open} reported transactions being checked: wait until they are settled`,
            undefined,
            { 'Retry-After': String(Math.ceil(deps.config.PAYMENT_RECHECK_MS / 1000) + 1) },
          );
      }

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
      await wakeJob(deps.db.sequelize, 'verify-payments', transaction);
      const actor = input.source;
      await recordAudit(
        deps.db,
        transaction,
        {
          orderId: order.id,
          type: 'tx.submitted',
          actor,
          data: { txId, ...actingKeyData(input.actingKey ?? null) },
        },
        now,
      );
      if (order.status !== 'CONFIRMING')
        await changeOrderStatus(deps, transaction, order, {
          to: 'CONFIRMING',
          actor,
          reason: 'transaction reported, awaiting on-chain verification',
          data: { txId, ...actingKeyData(input.actingKey ?? null) },
        });
      return order;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError)
      throw ApiError.conflict('This transaction was already submitted for another order');
    throw error;
  }
}
