import type { PaymentClaim } from '../db/models';
import type { ClaimStatus } from '../db/models/payment-claim';
import type { Lifecycle, Transition } from '../events/lifecycle';

/**
 * A payment claim: a transaction reported for an order (by its merchant or a payer) or found paying
 * it (by the scanner), read on chain until it is settled. Its own moves send no event: the order's
 * move that follows does (server/orders/order-lifecycle.ts), carrying the order as it then is.
 */
export type ClaimCause = 'reported' | 'found' | 'credited' | 'rejected' | 'unproven';

export const CLAIM_TRANSITIONS: readonly Transition<ClaimStatus, ClaimCause>[] = [
  { from: [], cause: 'reported', to: 'PENDING', event: null, audit: 'tx.submitted' },
  // Reported again, with more weight (a signature, the merchant), while a report without proof of
  // it is under check: that claim takes the weight.
  { from: ['PENDING'], cause: 'reported', to: 'PENDING', event: null, audit: 'tx.submitted' },
  // The scanner's match is settled in the same transaction: its settlement is the entry.
  { from: [], cause: 'found', to: 'PENDING', event: null, audit: null },
  { from: ['PENDING'], cause: 'credited', to: 'VERIFIED', event: null, audit: 'payment.verified' },
  { from: ['PENDING'], cause: 'rejected', to: 'REJECTED', event: null, audit: 'payment.rejected' },
  { from: ['PENDING'], cause: 'unproven', to: 'UNPROVEN', event: null, audit: 'payment.claimed' },
];

export const CLAIM_LIFECYCLE: Lifecycle<ClaimStatus, ClaimCause, PaymentClaim> = {
  name: 'payment claim',
  table: 'payment_claims',
  transitions: CLAIM_TRANSITIONS,
  orderIdOf: (claim) => claim.orderId,
  auditStatus: false,
};
