import type { Transaction } from 'sequelize';
import type { ObservedTransaction } from '../chains/chain-adapter';
import type { Merchant, Order, PaymentClaim } from '../db/models';
import type { Deps } from '../deps';
import { formatAmount } from '../../contract/decimal';
import { ORDER_LIFECYCLE } from '../orders/order-lifecycle';
import { applyTransition } from '../events/lifecycle';
import { shortfallSumUnits, sumDecimalsOf } from '../orders/payment-options';
import { holdAmountsDue } from '../orders/unique-amount';
import { CAUSE_OF, closeClaim } from './close-claim';
import { judge, type Verdict } from './judge-claim';
import { presentClaim, presentPayment } from './present-payment';
import { readClaimFacts } from './read-claim-facts';
import { statusFromFacts } from './status-from-facts';
import { toleranceBps } from './underpayment-tolerance';

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
  const verdict = judge(deps, order, claim, tx, await readClaimFacts(deps, transaction, order, claim, tx));
  claim.attempts += 1;
  claim.updatedAt = now;

  if (verdict.kind === 'wait') {
    claim.nextCheckAt = new Date(now.getTime() + verdict.retryInMs);
    await claim.save({ transaction });
    return 'wait';
  }

  const partlyPaidBefore = order.amountReceivedUnits > 0n;
  // The claim is closed with what the chain said (its own move, in the order's timeline)...
  await closeClaim(deps, transaction, order, claim, verdict);

  // ... and the order goes where the facts now say, by its own table.
  // The tolerance matters only while something is still missing: read the merchant then.
  const merchant: Merchant | null =
    shortfallSumUnits(order) > 0n && order.amountReceivedUnits > 0n
      ? await models.Merchant.findByPk(order.merchantId, { transaction })
      : null;
  const bps = toleranceBps(deps.config, merchant);
  const next = await statusFromFacts(deps, order, transaction, bps);
  // What is still due is held from new orders while it is, and given back once paid.
  if (verdict.kind === 'accept' && (next !== 'PAID' || partlyPaidBefore))
    await holdAmountsDue(deps, transaction, order, next === 'PAID');
  const sumDecimals = sumDecimalsOf(order);
  const amountReceived = formatAmount(order.amountReceivedUnits, sumDecimals);
  let reason: string;
  let data: Record<string, unknown> = { amountReceived };
  if (next === 'PAID' && order.status !== 'PAID') {
    // Paid: its options' amounts stay reserved until its late window ends, so a second payment of
    // one of them is still this order's (an overpayment, refundable), never another order's.
    const landed = (verdict.kind === 'accept' && verdict.blockTime) || now;
    order.paidAt = landed;
    order.paidLate = landed > order.expiresAt;
    const short = shortfallSumUnits(order);
    const how = short > 0n ? 'paid within the underpayment tolerance' : 'paid in full';
    reason = order.paidLate ? `${how} after expiry (late payment)` : how;
    data = {
      amountReceived,
      txId: claim.txId,
      ...(short > 0n ? { shortBy: formatAmount(short, sumDecimals), toleranceBps: bps } : {}),
    };
  } else
    reason =
      verdict.kind === 'reject'
        ? `reported transaction rejected: ${verdict.reason}`
        : verdict.kind === 'unproven'
          ? 'reported transaction recorded unproven: it credits nothing until the merchant attributes it'
          : 'partial payment verified';
  // The order's events carry what caused them: the credited transfer, or the unproven report.
  const extra =
    verdict.kind === 'accept'
      ? { payment: presentPayment(claim, order) }
      : verdict.kind === 'unproven'
        ? { claim: presentClaim(claim, order) }
        : {};
  await applyTransition(deps, transaction, ORDER_LIFECYCLE, order, {
    cause: CAUSE_OF[verdict.kind],
    to: next,
    actor: 'system',
    reason,
    data,
    extra: { extra, merchant: merchant ?? undefined },
  });
  return verdict.kind;
}
