import type { ClaimedTransfer, Payment } from '../../contract';
import type { PaymentClaim } from '../db/models';
import { formatAmount } from '../../contract/decimal';

/** A verified claim as a ledger entry: the transfer that credited the order. */
export function presentPayment(claim: PaymentClaim, decimals: number): Payment {
  return {
    txId: claim.txId,
    network: claim.network,
    from: claim.sender,
    amount: formatAmount(claim.amountUnits ?? 0n, decimals),
    matchedBy: claim.matchedBy ?? 'claim',
    blockTime: claim.blockTime ? claim.blockTime.toISOString() : null,
    createdAt: claim.createdAt.toISOString(),
  };
}

/** An unproven claim as its event carries it: the reported transfer, and why it credits nothing. */
export function presentClaim(claim: PaymentClaim, decimals: number): ClaimedTransfer {
  const { matchedBy: _matchedBy, ...transfer } = presentPayment(claim, decimals);
  return { ...transfer, reason: claim.reason ?? '' };
}
