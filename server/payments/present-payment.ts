import type { Payment } from '../../contract';
import type { PaymentClaim } from '../db/models';
import { formatUnits } from '../lib/decimal';

/** A verified claim as a ledger entry: the transfer that credited the order. */
export function presentPayment(claim: PaymentClaim): Payment {
  return {
    txId: claim.txId,
    network: claim.network,
    from: claim.sender,
    amount: formatUnits(claim.amountUnits ?? 0n),
    matchedBy: claim.matchedBy ?? 'claim',
    blockTime: claim.blockTime ? claim.blockTime.toISOString() : null,
    createdAt: claim.createdAt.toISOString(),
  };
}
