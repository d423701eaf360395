import { Op, type Transaction } from 'sequelize';
import { refundHoldsAmount } from '../../contract';
import type { Deps } from '../deps';
import { recordAudit } from '../events/audit';
import { formatAmount } from '../../contract/decimal';
import { optionOf, sumDecimalsOf, toSumUnits } from '../orders/payment-options';
import { committedRefunds } from './committed-refunds';
import { applyTransition } from '../events/lifecycle';
import { REFUND_LIFECYCLE } from './refund-lifecycle';
import { lateUntil, OPEN_REFUND_STATUSES } from './refund-rules';

/** Locks the order, then the refund (the one lock order of every refund change). */
async function lockRefund(deps: Pick<Deps, 'db'>, refundId: string, transaction: Transaction) {
  const { models } = deps.db;
  const probe = await models.Refund.findByPk(refundId, { attributes: ['orderId'], transaction });
  if (!probe) return null;
  const order = await models.Order.findByPk(probe.orderId, { transaction, lock: transaction.LOCK.UPDATE });
  const refund = await models.Refund.findByPk(refundId, { transaction, lock: transaction.LOCK.UPDATE });
  return order && refund ? { order, refund } : null;
}

/**
 * A verified refund transfer: the refund SUCCEEDED, the order's amountRefunded grows, with audit and
 * `refund.succeeded` in the same transaction. A FAILED refund still holding its amount (in its late
 * window) SUCCEEDS too, `late`: its amount was never given to another refund, so the order can
 * never have refunded more than it received. False when the refund can no longer succeed, the
 * transaction already settled another refund (one transaction refunds at most one refund), or,
 * matched by its amount, it names another refund (`tags`): then it is that refund's.
 */
export async function succeedRefund(
  deps: Deps,
  input: {
    refundId: string;
    txId: string;
    matchedBy: 'tag' | 'amount';
    blockTime: Date | null;
    tags: readonly string[];
  },
): Promise<boolean> {
  const { models, sequelize } = deps.db;
  return sequelize.transaction(async (transaction) => {
    const locked = await lockRefund(deps, input.refundId, transaction);
    if (!locked) return false;
    const { order, refund } = locked;
    const now = deps.clock();
    const late = refund.status === 'FAILED';
    if (refund.status !== 'PENDING' && !(late && refundHoldsAmount(refund, now))) return false;
    // Instances' clocks may disagree at the window's edge: whatever this one says, a late refund
    // never takes what another refund was given meanwhile (what all hold, this one included,
    // stays within what the order received).
    if (late && (await committedRefunds(deps.db, order, now, transaction)).units > order.amountReceivedUnits)
      return false;
    const namesAnother = input.matchedBy === 'amount' && input.tags.length > 0;
    const taken = await models.Refund.findOne({
      where: {
        network: refund.network,
        id: { [Op.ne]: refund.id },
        [Op.or]: [{ txId: input.txId }, ...(namesAnother ? [{ tag: { [Op.in]: [...input.tags] } }] : [])],
      },
      attributes: ['id'],
      transaction,
    });
    if (taken) return false;
    refund.txId = input.txId;
    refund.matchedBy = input.matchedBy;
    refund.late = late;
    refund.nextCheckAt = null;
    const option = optionOf(order, refund.optionIndex);
    order.amountRefundedUnits += toSumUnits(refund.amountUnits, option.decimals, sumDecimalsOf(order));
    order.updatedAt = now;
    await order.save({ transaction });
    await applyTransition(deps, transaction, REFUND_LIFECYCLE, refund, {
      cause: 'verified',
      to: 'SUCCEEDED',
      actor: 'system',
      data: {
        refundId: refund.id,
        txId: input.txId,
        amount: formatAmount(refund.amountUnits, option.decimals),
        amountRefunded: formatAmount(order.amountRefundedUnits, sumDecimalsOf(order)),
        to: refund.toAddress,
        matchedBy: input.matchedBy,
        blockTime: input.blockTime?.toISOString() ?? null,
        ...(late ? { late: true } : {}),
      },
      extra: { order },
    });
    return true;
  });
}

/**
 * The deadline passed without a verified transfer: FAILED, with audit and `refund.failed`. A refund
 * that could be sent (PENDING) is still looked for until its late window ends, and holds its amount
 * until then; one that never could is done with.
 */
export async function failRefund(deps: Deps, input: { refundId: string; reason: string }): Promise<boolean> {
  const { sequelize } = deps.db;
  return sequelize.transaction(async (transaction) => {
    const locked = await lockRefund(deps, input.refundId, transaction);
    if (!locked || !(OPEN_REFUND_STATUSES as readonly string[]).includes(locked.refund.status)) return false;
    const { order, refund } = locked;
    const now = deps.clock();
    const sendable = refund.status === 'PENDING';
    refund.failureReason = input.reason;
    refund.lateUntil = lateUntil(now, sendable, deps.config.LATE_PAYMENT_WINDOW_SECONDS);
    refund.nextCheckAt = refund.lateUntil ? now : null;
    await applyTransition(deps, transaction, REFUND_LIFECYCLE, refund, {
      cause: 'deadline',
      to: 'FAILED',
      actor: 'system',
      data: {
        refundId: refund.id,
        amount: formatAmount(refund.amountUnits, optionOf(order, refund.optionIndex).decimals),
        reason: input.reason,
        lateUntil: refund.lateUntil?.toISOString() ?? null,
      },
      extra: { order },
    });
    return true;
  });
}

/** A transaction that names or looks like the refund but does not pay it: in the audit, once. */
export async function recordRefundRejection(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { orderId: string; refundId: string; txId: string; reason: string },
) {
  const { models, sequelize } = deps.db;
  const type = 'refund.transaction_rejected';
  const seen = await models.AuditEntry.findOne({
    where: { orderId: input.orderId, type, data: { refundId: input.refundId, txId: input.txId } },
    attributes: ['id'],
  });
  if (seen) return;
  await sequelize.transaction((transaction) =>
    recordAudit(
      deps.db,
      transaction,
      {
        orderId: input.orderId,
        type,
        actor: 'system',
        data: { refundId: input.refundId, txId: input.txId, reason: input.reason },
      },
      deps.clock(),
    ),
  );
}
