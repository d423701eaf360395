import { Op, type Transaction } from 'sequelize';
import type { OrderStatus } from '../../contract';
import type { ObservedTransaction } from '../chains/chain-adapter';
import type { Merchant, Order, PaymentClaim } from '../db/models';
import type { Deps } from '../deps';
import { recordAudit } from '../events/audit';
import { emitOrderEvent } from '../orders/emit-order-event';
import { formatAmount } from '../lib/decimal';
import { changeOrderStatus } from '../orders/change-order-status';
import { payableNow, payableWhere } from '../orders/payable';
import { releaseAmount } from '../orders/unique-amount';
import { CLOCK_SKEW_MS, creditedTo, paysExactly, senderTo } from './credited-to';
import { presentPayment } from './present-payment';
import { paysOrder, shortfallUnits, toleranceBps } from './underpayment-tolerance';

export type MatchedBy = 'tag' | 'amount' | 'claim';

export type Verdict =
  | { kind: 'wait'; reason: string }
  | { kind: 'reject'; reason: string }
  | { kind: 'accept'; credited: bigint; blockTime: Date | null; matchedBy: MatchedBy; sender: string | null };

/** What other orders to the same recipient and token have to do with a transaction. */
export type OtherOrders = {
  /** The reference of another order the transaction names by its tag: the payment is that order's. */
  named: string | null;
  /** The reference of another payable order whose exact amount (or amount due) the transfer pays. */
  paidExactly: string | null;
};

const NO_OTHERS: OtherOrders = { named: null, paidExactly: null };

/**
 * What a transaction means for an order, from facts read on chain only (it succeeded, is final,
 * and credits the order's token to the order's recipient), then by the evidence ladder that is the
 * same on every network, strongest first:
 *   1. tag: the transaction names this order; it pays it whatever the amount;
 *   2. amount: no tag, but it pays exactly the order's amount (or what is still due);
 *   3. claim: neither, but it was reported for this order (submit-tx), names no other order, and
 *      pays no other payable order's exact amount: the payer's word, recorded as such.
 * Untagged payments must not predate the order.
 */
export function judge(
  deps: Pick<Deps, 'config' | 'clock'>,
  order: Order,
  claim: PaymentClaim,
  tx: ObservedTransaction,
  others: OtherOrders = NO_OTHERS,
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

  const credited = creditedTo(tx.transfers, order.recipient, order.tokenMint);
  if (credited === 0n) {
    if (tx.transfers.some((t) => t.to === order.recipient))
      return {
        kind: 'reject',
        reason: `wrong token: the transfer to the recipient is not ${order.token} (${order.tokenMint})`,
      };
    if (tx.transfers.some((t) => t.token === order.tokenMint))
      return { kind: 'reject', reason: `wrong recipient: no ${order.token} reached ${order.recipient}` };
    return { kind: 'reject', reason: `no ${order.token} transfer to ${order.recipient} in this transaction` };
  }
  const blockTime = tx.blockTime;
  const accept = (matchedBy: MatchedBy): Verdict => ({
    kind: 'accept',
    credited,
    blockTime,
    matchedBy,
    sender: senderTo(tx.transfers, order.recipient, order.tokenMint),
  });
  if (tx.tags.includes(order.reference)) return accept('tag');
  if (others.named)
    return { kind: 'reject', reason: `the transaction pays another order (reference ${others.named})` };
  if (blockTime && blockTime.getTime() < order.createdAt.getTime() - CLOCK_SKEW_MS)
    return { kind: 'reject', reason: 'the transaction does not name the order and predates it' };
  // Full amounts are unique among payable orders; a remainder is not: it counts only when no other
  // payable order's amount (or remainder) is the same, as the scanner would match it there first.
  const due = order.amountUnits - order.amountReceivedUnits;
  if (order.amountUnique && credited === order.amountUnits) return accept('amount');
  if (order.amountUnique && credited === due && !others.paidExactly) return accept('amount');
  const amounts = `${formatAmount(credited, order.tokenDecimals)} is neither the order's ${formatAmount(order.amountUnits, order.tokenDecimals)} nor the ${formatAmount(due, order.tokenDecimals)} due`;
  if (claim.source === 'scanner')
    return { kind: 'reject', reason: `the transaction does not name the order and ${amounts}` };
  if (others.paidExactly)
    return {
      kind: 'reject',
      reason: `the transaction does not name the order, ${amounts}, and it is the exact amount of another order (reference ${others.paidExactly})`,
    };
  return accept('claim');
}

/**
 * The status the facts give, once a claim is settled. PAID is terminal; an order short by no more
 * than the underpayment tolerance (`bps` of its amount) is PAID too.
 */
async function statusFromFacts(
  deps: Pick<Deps, 'db' | 'clock'>,
  order: Order,
  transaction: Transaction,
  bps: number,
): Promise<OrderStatus> {
  if (order.status === 'PAID' || paysOrder(order, bps)) return 'PAID';
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
  const verdict = judge(deps, order, claim, tx, await otherOrders(deps, transaction, order, tx));
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
      deps.db,
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
    claim.sender = verdict.sender;
    await claim.save({ transaction });
    order.amountReceivedUnits += verdict.credited;
    order.txId = claim.txId;
    order.updatedAt = now;
    await order.save({ transaction });
    await recordAudit(
      deps.db,
      transaction,
      {
        orderId: order.id,
        type: 'payment.verified',
        actor: 'system',
        data: {
          txId: claim.txId,
          amount: formatAmount(verdict.credited, order.tokenDecimals),
          amountReceived: formatAmount(order.amountReceivedUnits, order.tokenDecimals),
          matchedBy: verdict.matchedBy,
          from: verdict.sender,
          blockTime: verdict.blockTime?.toISOString() ?? null,
          source: claim.source,
        },
      },
      now,
    );
  }

  // The tolerance matters only while something is still missing: read the merchant then.
  const merchant: Merchant | null =
    shortfallUnits(order) > 0n && order.amountReceivedUnits > 0n
      ? await models.Merchant.findByPk(order.merchantId, { transaction })
      : null;
  const bps = toleranceBps(deps.config, merchant);
  const next = await statusFromFacts(deps, order, transaction, bps);
  // Events caused by a credited transfer carry it (data.payment) beside the order.
  const eventExtra = verdict.kind === 'accept' ? { payment: presentPayment(claim, order.tokenDecimals) } : {};
  if (next === 'PAID' && order.status !== 'PAID') {
    // Paid: its amount may serve the next order to this wallet.
    await releaseAmount(deps, order.reference, transaction);
    const landed = (verdict.kind === 'accept' && verdict.blockTime) || now;
    order.paidAt = landed;
    order.paidLate = landed > order.expiresAt;
    const short = shortfallUnits(order);
    const how = short > 0n ? 'paid within the underpayment tolerance' : 'paid in full';
    await changeOrderStatus(deps, transaction, order, {
      to: 'PAID',
      actor: 'system',
      reason: order.paidLate ? `${how} after expiry (late payment)` : how,
      data: {
        amountReceived: formatAmount(order.amountReceivedUnits, order.tokenDecimals),
        txId: claim.txId,
        ...(short > 0n ? { shortBy: formatAmount(short, order.tokenDecimals), toleranceBps: bps } : {}),
      },
      eventExtra,
    });
  } else if (next !== order.status) {
    await changeOrderStatus(deps, transaction, order, {
      to: next,
      actor: 'system',
      reason:
        verdict.kind === 'reject'
          ? `reported transaction rejected: ${verdict.reason}`
          : 'partial payment verified',
      data: { amountReceived: formatAmount(order.amountReceivedUnits, order.tokenDecimals) },
      // A rejection's news is order.payment_rejected: going back to where the order was is not news
      // (no second order.expired). An expiry with money received is news of a partial payment.
      event: verdict.kind === 'reject' ? null : next === 'EXPIRED' ? 'order.underpaid' : undefined,
      eventExtra,
    });
  } else if (verdict.kind === 'accept' && next !== 'PAID') {
    // A further partial payment without a status change (UNDERPAID stays UNDERPAID).
    await emitOrderEvent(deps, transaction, order, 'order.underpaid', now, merchant ?? undefined, eventExtra);
  }
  // After the status change, so the event carries the order as it now is (back to PENDING, say).
  if (verdict.kind === 'reject')
    await emitOrderEvent(deps, transaction, order, 'order.payment_rejected', now);
  return verdict.kind;
}

/**
 * Other orders to the same recipient and token that a transaction's evidence points at: one it
 * names by tag (the payment is that order's), or one whose exact amount it pays.
 */
async function otherOrders(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  transaction: Transaction,
  order: Order,
  tx: ObservedTransaction,
): Promise<OtherOrders> {
  if (tx.state !== 'final' || tx.tags.includes(order.reference)) return NO_OTHERS;
  const { Order: Orders } = deps.db.models;
  const scope = {
    network: order.network,
    recipient: order.recipient,
    tokenMint: order.tokenMint,
    id: { [Op.ne]: order.id },
  };
  const named =
    tx.tags.length === 0
      ? null
      : await Orders.findOne({
          where: { ...scope, reference: { [Op.in]: tx.tags } },
          attributes: ['reference'],
          transaction,
        });
  const credited = creditedTo(tx.transfers, order.recipient, order.tokenMint);
  const paidExactly = await Orders.findOne({
    where: {
      ...scope,
      ...payableWhere(payableNow(deps)),
      ...paysExactly(credited),
    } as never,
    attributes: ['reference'],
    transaction,
  });
  return { named: named?.reference ?? null, paidExactly: paidExactly?.reference ?? null };
}
