import type { ClaimedTransfer, Payment } from '../../contract';
import type { Order, PaymentClaim } from '../db/models';
import { formatAmount } from '../../contract/decimal';
import { firstOptionOf, optionAt } from '../orders/payment-options';

/** A verified claim as a ledger entry: the transfer that credited the order, on one of its options. */
export function presentPayment(claim: PaymentClaim, order: Order): Payment {
  const option = optionAt(order, claim.optionIndex ?? 0) ?? firstOptionOf(order);
  return {
    txId: claim.txId,
    network: claim.network,
    token: option.token,
    from: claim.sender,
    amount: formatAmount(claim.amountUnits ?? 0n, option.decimals),
    matchedBy: claim.matchedBy ?? 'claim',
    blockTime: claim.blockTime ? claim.blockTime.toISOString() : null,
    createdAt: claim.createdAt.toISOString(),
  };
}

/** An unproven claim as its event carries it: the reported transfer, and why it credits nothing. */
export function presentClaim(claim: PaymentClaim, order: Order): ClaimedTransfer {
  const { matchedBy: _matchedBy, ...transfer } = presentPayment(claim, order);
  return { ...transfer, reason: claim.reason ?? '' };
}
