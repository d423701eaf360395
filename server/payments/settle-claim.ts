import { Op, type Transaction } from 'sequelize';
import type { OrderStatus } from '../../contract';
import type { ObservedTransaction } from '../chains/chain-adapter';
import type { Order, PaymentClaim } from '../db/models';
import type { Deps } from '../deps';
import { recordAudit } from '../events/audit';
import { emitOrderEvent } from '../events/emit-order-event';
import { formatUnits } from '../lib/decimal';
import { changeOrderStatus } from '../orders/change-order-status';
import { CLOCK_SKEW_MS, creditedTo } from './credited-to';

type Verdict =
  | { kind: 'wait'; reason: string }
  | { kind: 'reject'; reason: string }
  | { kind: 'accept'; credited: bigint; blockTime: Date | null; matchedBy: 'reference' | 'amount' };

/**
 * What a transaction means for an order, from facts read on chain only: it succeeded and is final,
 * it credits the order's token to the order's recipient, and it names the order's reference, or,
 * for wallets that drop the reference, it pays the order's exact (unique) amount after the order existed.
 * `otherReference`: the reference of another order that the transaction names, if any; such a
 * payment belongs to that order, never to this one by amount.
 */
export function judge(
  deps: Pick<Deps, 'config' | 'clock'>,
  order: Order,
  claim: PaymentClaim,
  tx: ObservedTransaction,
  otherReference: string | null = null,
): Verdict {
  if (tx.state === 'not_found') {
    const deadline = claim.createdAt.getTime() + deps.config.PAYMENT_NOT_FOUND_TIMEOUT_SECONDS * 1000;
    return deps.clock().getTime() > deadline
      ? {
          kind: 'reject',
          reason: `transaction not found on chain within ${deps.config.PAYMENT_NOT_FOUND_TIMEOUT_SECONDS} s`,
        }
      : { kind: 'wait', reason: 'transaction not found yet' };
  }
  if (tx.state === 'not_final') return { kind: 'wait', reason: 'transaction not final yet' };
  if (tx.state === 'failed') return { kind: 'reject', reason: 'transaction failed on chain' };

  const credited = creditedTo(tx.credits, order.recipient, order.tokenMint);
  if (credited === 0n) {
    if (tx.credits.some((c) => c.owner === order.recipient))
      return {
        kind: 'reject',
        reason: `wrong token: the transfer to the recipient is not ${order.token} (${order.tokenMint})`,
      };
    if (tx.credits.some((c) => c.mint === order.tokenMint))
      return { kind: 'reject', reason: `wrong recipient: no ${order.token} reached ${order.recipient}` };
    return { kind: 'reject', reason: `no ${order.token} transfer to ${order.recipient} in this transaction` };
  }
  const blockTime = tx.blockTime;
  if (order.network === 'SOLANA' && tx.accountKeys.includes(order.reference))
    return { kind: 'accept', credited, blockTime, matchedBy: 'reference' };
  if (otherReference)
    return { kind: 'reject', reason: `the transaction pays another order (reference ${otherReference})` };
  const due = order.amountUnits - order.amountReceivedUnits;
  if (credited !== order.amountUnits && credited !== due)
    return {
      kind: 'reject',
      reason: `reference missing and the amount ${formatUnits(credited)} is not the order's ${formatUnits(order.amountUnits)}`,
    };
  if (blockTime && blockTime.getTime() < order.createdAt.getTime() - CLOCK_SKEW_MS)
    return { kind: 'reject', reason: 'reference missing and the transaction predates the order' };
  return { kind: 'accept', credited, blockTime, matchedBy: 'amount' };
}

/** The status the facts give, once a claim is settled. PAID is terminal. */
async function statusFromFacts(
  deps: Pick<Deps, 'db' | 'clock'>,
  order: Order,
  transaction: Transaction,
): Promise<OrderStatus> {
  if (order.status === 'PAID' || order.amountReceivedUnits >= order.amountUnits) return 'PAID';
  const pending = await deps.db.models.PaymentClaim.count({
    where: { orderId: order.id, status: 'PENDING' },
    transaction,
  });
  if (pending > 0) return 'CONFIRMING';
  if (deps.clock() > order.expiresAt) return 'EXPIRED';
  return order.amountReceivedUnits > 0n ? 'UNDERPAID' : 'PENDING';
}

/**
 * Applies what the chain says to a claim and its order, in the caller's transaction (both rows
 * locked by it): wait and re-check later, reject with the reason (audit + order.payment_rejected),
 * or credit the payment and move the order on (PAID, paidLate when it landed after expiry).
 */
export async function settleClaim(
  deps: Deps,
  transaction: Transaction,
  order: Order,
  claim: PaymentClaim,
  tx: ObservedTransaction,
): Promise<Verdict['kind']> {
  const { models } = deps.db;
  const now = deps.clock();
  const verdict = judge(deps, order, claim, tx, await otherOrderNamed(deps, transaction, order, tx));
  claim.attempts += 1;
  claim.updatedAt = now;

  if (verdict.kind === 'wait') {
    claim.nextCheckAt = new Date(now.getTime() + deps.config.PAYMENT_RECHECK_MS);
    await claim.save({ transaction });
    return 'wait';
  }

  if (verdict.kind === 'reject') {
    claim.status = 'REJECTED';
    claim.reason = verdict.reason;
    await claim.save({ transaction });
    await recordAudit(
      models,
      transaction,
      {
        orderId: order.id,
        type: 'payment.rejected',
        actor: 'system',
        data: { txId: claim.txId, reason: verdict.reason },
      },
      now,
    );
  } else {
    claim.status = 'VERIFIED';
    claim.amountUnits = verdict.credited;
    claim.blockTime = verdict.blockTime;
    claim.matchedBy = verdict.matchedBy;
    await claim.save({ transaction });
    order.amountReceivedUnits += verdict.credited;
    order.txId = claim.txId;
    order.updatedAt = now;
    await order.save({ transaction });
    await recordAudit(
      models,
      transaction,
      {
        orderId: order.id,
        type: 'payment.verified',
        actor: 'system',
        data: {
          txId: claim.txId,
          amount: formatUnits(verdict.credited),
          amountReceived: formatUnits(order.amountReceivedUnits),
          matchedBy: verdict.matchedBy,
          blockTime: verdict.blockTime?.toISOString() ?? null,
          source: claim.source,
        },
      },
      now,
    );
  }

  const next = await statusFromFacts(deps, order, transaction);
  if (next === 'PAID' && order.status !== 'PAID') {
    const landed = (verdict.kind === 'accept' && verdict.blockTime) || now;
    order.paidAt = landed;
    order.paidLate = landed > order.expiresAt;
    await changeOrderStatus(deps, transaction, order, {
      to: 'PAID',
      actor: 'system',
      reason: order.paidLate ? 'paid in full after expiry (late payment)' : 'paid in full',
      data: { amountReceived: formatUnits(order.amountReceivedUnits), txId: claim.txId },
    });
  } else if (next !== order.status) {
    await changeOrderStatus(deps, transaction, order, {
      to: next,
      actor: 'system',
      reason:
        verdict.kind === 'reject'
          ? `reported transaction rejected: ${verdict.reason}`
          : 'partial payment verified',
      data: { amountReceived: formatUnits(order.amountReceivedUnits) },
      // A rejection's news is order.payment_rejected: going back to where the order was is not news
      // (no second order.expired). An expiry with money received is news of a partial payment.
      event: verdict.kind === 'reject' ? null : next === 'EXPIRED' ? 'order.underpaid' : undefined,
    });
  } else if (verdict.kind === 'accept' && next !== 'PAID') {
    // A further partial payment without a status change (UNDERPAID stays UNDERPAID).
    await emitOrderEvent(deps, transaction, order, 'order.underpaid', now);
  }
  // After the status change, so the event carries the order as it now is (back to PENDING, say).
  if (verdict.kind === 'reject')
    await emitOrderEvent(deps, transaction, order, 'order.payment_rejected', now);
  return verdict.kind;
}

/**
 * The reference of another order to the same recipient and mint that a Solana transaction names
 * (none when it names this order's own): that order is the one it pays, as the scanner would match.
 */
async function otherOrderNamed(
  deps: Pick<Deps, 'db'>,
  transaction: Transaction,
  order: Order,
  tx: ObservedTransaction,
): Promise<string | null> {
  if (order.network !== 'SOLANA' || (tx.state !== 'final' && tx.state !== 'failed')) return null;
  if (tx.accountKeys.includes(order.reference)) return null;
  const other = await deps.db.models.Order.findOne({
    where: {
      network: order.network,
      recipient: order.recipient,
      tokenMint: order.tokenMint,
      reference: { [Op.in]: tx.accountKeys },
      id: { [Op.ne]: order.id },
    },
    attributes: ['reference'],
    transaction,
  });
  return other?.reference ?? null;
}
