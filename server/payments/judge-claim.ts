import type { ObservedTransaction, Transfer } from '../chains/chain-adapter';
import type { Order, PaymentClaim } from '../db/models';
import type { Deps } from '../deps';
import { formatAmount } from '../../contract/decimal';
import { amountEvidence, type AmountMatch, CLOCK_SKEW_MS, creditedTo, senderTo } from './credited-to';
import { optionDueUnits, optionsOf, type PaymentOption } from '../orders/payment-options';

export type MatchedBy = 'tag' | 'amount' | 'claim' | 'x402';

/** The longest wait between two reads of a transaction the chain does not know (yet). */
export const NOT_FOUND_BACKOFF_MAX_MS = 5 * 60_000;

/** What the transaction sent to one of the order's options, in that option's base units. */
export type Transferred = {
  credited: bigint;
  blockTime: Date | null;
  sender: string | null;
  option: PaymentOption;
};

export type Verdict =
  | { kind: 'wait'; reason: string; retryInMs: number }
  | { kind: 'reject'; reason: string }
  | ({ kind: 'accept'; matchedBy: MatchedBy } & Transferred)
  /** A payer's report the evidence does not carry: recorded for the merchant, credits nothing. */
  | ({ kind: 'unproven'; reason: string } & Transferred);

/**
 * What the database and the claim's proof say about a final transaction, beside the transaction
 * itself: everything `judge` needs that the chain does not. Other orders are the same merchant's,
 * to the same recipient and token.
 */
export type ClaimFacts = {
  /** The reference of another order the transaction names by its tag: the payment is that order's. */
  named: string | null;
  /**
   * Other watched orders whose exact amount (or amount due) the transfer pays, at most two, shared
   * amounts included (ordersPaidExactly): with this order's own match, amountEvidence tells whose it is.
   */
  paidExactly: AmountMatch[];
  /** The reference of another order this transaction was already credited to. */
  creditedElsewhere: string | null;
  /** Whether the order's merchant owns its receiving wallet on this instance (server/wallets). */
  ownsRecipient: boolean;
  /** The sending wallet whose signature the claim carries, once checked; null without a valid one. */
  provenSender: string | null;
};

export const NO_FACTS: ClaimFacts = {
  named: null,
  paidExactly: [],
  creditedElsewhere: null,
  ownsRecipient: true,
  provenSender: null,
};

/** A transaction not found yet is read again after 1 s, 2 s, 4 s ... at most every 5 minutes. */
export function notFoundBackoffMs(baseMs: number, attempts: number): number {
  return Math.min(NOT_FOUND_BACKOFF_MAX_MS, baseMs * 2 ** Math.min(Math.max(attempts, 0), 20));
}

/**
 * What a transaction means for an order, from facts read on chain only (it succeeded, is final,
 * and credits the order's token to the order's recipient, a wallet its merchant owns), then by the
 * evidence ladder that is the same on every network, strongest first:
 *   1. tag: the transaction names this order; it pays it whatever the amount;
 *   2. amount: no tag, but it pays exactly the order's amount (or what is still due), and no other
 *      order's (amountEvidence: an amount several orders match is nobody's evidence);
 *   3. claim: neither, but it was reported for this order (submit-tx), names no other order, and
 *      is not another order's evidence by amount: by the merchant (its word), or by a payer who
 *      proved to be the sender (its signature). A payer's report without proof is recorded,
 *      unproven, and credits nothing: anyone can read a transaction id off the chain.
 * Untagged payments must not predate the order (unless the merchant says so). A transaction
 * credited to one order is never credited to another.
 */
export function judge(
  deps: Pick<Deps, 'config' | 'clock'>,
  order: Order,
  claim: PaymentClaim,
  tx: ObservedTransaction,
  facts: ClaimFacts = NO_FACTS,
): Verdict {
  if (tx.state === 'not_found') {
    const deadline = claim.createdAt.getTime() + deps.config.PAYMENT_NOT_FOUND_TIMEOUT_SECONDS * 1000;
    const left = deadline - deps.clock().getTime();
    // Made-up ids cost a few reads each, not one a second: the wait doubles with every miss, and
    // the last read comes just after the deadline (the claim then stops holding its place).
    return left < 0
      ? {
          kind: 'reject',
          reason: `transaction not found on chain within ${deps.config.PAYMENT_NOT_FOUND_TIMEOUT_SECONDS} s`,
        }
      : {
          kind: 'wait',
          reason: 'transaction not found yet',
          retryInMs: Math.min(notFoundBackoffMs(deps.config.PAYMENT_RECHECK_MS, claim.attempts), left + 1),
        };
  }
  if (tx.state === 'not_final')
    return { kind: 'wait', reason: 'transaction not final yet', retryInMs: deps.config.PAYMENT_RECHECK_MS };
  if (tx.state === 'failed') return { kind: 'reject', reason: 'transaction failed on chain' };

  const option = creditedOption(order, claim.network, tx.transfers);
  if (!option) return { kind: 'reject', reason: `the order cannot be paid on ${claim.network}` };
  const credited = creditedTo(tx.transfers, option.recipient, option.tokenMint);
  if (credited === 0n) {
    if (tx.transfers.some((t) => t.to === option.recipient))
      return {
        kind: 'reject',
        reason: `wrong token: the transfer to the recipient is not ${option.token} (${option.tokenMint})`,
      };
    if (tx.transfers.some((t) => t.token === option.tokenMint))
      return { kind: 'reject', reason: `wrong recipient: no ${option.token} reached ${option.recipient}` };
    return {
      kind: 'reject',
      reason: `no ${option.token} transfer to ${option.recipient} in this transaction`,
    };
  }
  if (!facts.ownsRecipient)
    return {
      kind: 'reject',
      reason: `the receiving wallet ${option.recipient} is registered to another account on this service`,
    };
  if (facts.creditedElsewhere)
    return {
      kind: 'reject',
      reason: `the transaction was already credited to another order (reference ${facts.creditedElsewhere})`,
    };
  const blockTime = tx.blockTime;
  const sender = senderTo(tx.transfers, option.recipient, option.tokenMint);
  const accept = (matchedBy: MatchedBy, from = sender): Verdict => ({
    kind: 'accept',
    credited,
    blockTime,
    matchedBy,
    sender: from,
    option,
  });
  // Closed for good (another order paid for what it billed): what the scanner finds is nobody's.
  if (order.supersededAt && claim.source === 'scanner')
    return { kind: 'reject', reason: 'the order is closed: another order paid for what it billed' };
  // The facilitator's own transaction for its x402 order (server/x402/): it was made for this order,
  // after its authorization was checked; the checks above (it succeeded, is final, pays the order's
  // wallet in its token, credited nowhere else) still apply.
  if (claim.source === 'x402' && order.kind === 'x402') return accept('x402');
  if (tx.tags.includes(order.reference)) return accept('tag');
  if (facts.named)
    return { kind: 'reject', reason: `the transaction pays another order (reference ${facts.named})` };
  if (
    claim.source !== 'merchant' &&
    blockTime &&
    blockTime.getTime() < order.createdAt.getTime() - CLOCK_SKEW_MS
  )
    return { kind: 'reject', reason: 'the transaction does not name the order and predates it' };
  // Each option's own amount, in its own token (the amount of one option sent to another's wallet
  // is no evidence: amounts are unique per wallet and token only), or what is still due on it; the
  // order's only if no other order's amount or remainder is the same (amountEvidence).
  const due = optionDueUnits(order, option);
  const mine = credited === option.amountUnits || credited === due;
  const own = { reference: order.reference, unique: option.amountUnique };
  const evidence = amountEvidence(mine ? [own, ...facts.paidExactly] : facts.paidExactly);
  if (evidence === own) return accept('amount');
  const amount = formatAmount(credited, option.decimals);
  const amounts = !mine
    ? `${amount} is neither the order's ${formatAmount(option.amountUnits, option.decimals)} nor the ${formatAmount(due, option.decimals)} due`
    : facts.paidExactly.length > 0
      ? `${amount} is also the exact amount (or amount due) of another order (reference ${facts.paidExactly[0]!.reference}): nobody's evidence`
      : `${amount} is an amount it shares with other orders (amountUnique false): no evidence`;
  if (claim.source === 'scanner')
    return { kind: 'reject', reason: `the transaction does not name the order and ${amounts}` };
  if (evidence)
    return {
      kind: 'reject',
      reason: `the transaction does not name the order, ${amounts}, and it is the exact amount of another order (reference ${evidence.reference})`,
    };
  if (claim.source === 'merchant') return accept('claim');
  if (facts.provenSender) return accept('claim', facts.provenSender);
  if (claim.proofSignature)
    return { kind: 'reject', reason: 'the signature is not by a wallet that sent this transfer' };
  return {
    kind: 'unproven',
    credited,
    blockTime,
    sender,
    option,
    reason: `the transaction does not name the order, ${amounts}, and the report is not signed by the sending wallet: the merchant may attribute it`,
  };
}

/**
 * The order's option a transaction on `network` pays: the first of its options there to whose
 * wallet and token it sends something, else the first there (for the reasons of a rejection);
 * undefined when the order has no option on the network.
 */
export function creditedOption(
  order: Order,
  network: string,
  transfers: Transfer[],
): PaymentOption | undefined {
  const there = optionsOf(order).filter((o) => o.network === network);
  return there.find((o) => creditedTo(transfers, o.recipient, o.tokenMint) > 0n) ?? there[0];
}
