import type { ObservedTransaction, Transfer } from '../chains/chain-adapter';
import { CLOCK_SKEW_MS } from '../payments/credited-to';
import { formatAmount } from '../../contract/decimal';

/** What the verifier knows of a refund. */
export type RefundFacts = {
  tag: string;
  tokenMint: string;
  from: string;
  to: string;
  amountUnits: bigint;
  /** The order's token decimals. */
  decimals: number;
  /** When it got its address: an untagged transfer before then cannot be it. */
  sendableSince: Date;
};

export type RefundVerdict =
  | { kind: 'wait'; reason: string }
  /** Not this refund's transaction at all (another transfer on the same path): nothing to record. */
  | { kind: 'ignore' }
  /** Looks like this refund's but does not pay it as it must: recorded, never credited. */
  | { kind: 'reject'; reason: string }
  | { kind: 'accept'; matchedBy: 'tag' | 'amount'; blockTime: Date | null };

/** Tokens the transaction sent from `from` to `to`. */
export function sentBetween(transfers: Transfer[], facts: Pick<RefundFacts, 'tokenMint' | 'from' | 'to'>) {
  return transfers
    .filter((t) => t.token === facts.tokenMint && t.from === facts.from && t.to === facts.to)
    .reduce((sum, t) => sum + t.amountUnits, 0n);
}

/**
 * Whether a transaction is the refund, read on chain like a payment: succeeded and final, the right
 * token, from the order's receiving wallet, to the refund address, exactly the refund amount. It is
 * tied to the refund by its tag, or without one (the EIP-681 link, a mobile wallet's plain transfer)
 * by that exact amount on that path after the refund got its address. A transfer of another amount
 * is never the refund.
 */
export function judgeRefund(facts: RefundFacts, tx: ObservedTransaction): RefundVerdict {
  if (tx.state === 'not_found' || tx.state === 'not_final')
    return { kind: 'wait', reason: `transaction ${tx.state.replace('_', ' ')}` };
  const tagged = tx.tags.includes(facts.tag);
  if (tx.state === 'failed')
    return tagged ? { kind: 'reject', reason: 'transaction failed on chain' } : { kind: 'ignore' };
  const sent = sentBetween(tx.transfers, facts);
  if (!tagged) {
    if (sent === 0n) return { kind: 'ignore' };
    if (tx.blockTime && tx.blockTime.getTime() < facts.sendableSince.getTime() - CLOCK_SKEW_MS)
      return { kind: 'ignore' };
  }
  if (sent === 0n)
    return {
      kind: 'reject',
      reason: `names the refund but sends no ${facts.tokenMint} from ${facts.from} to ${facts.to}`,
    };
  if (sent !== facts.amountUnits)
    return {
      kind: 'reject',
      reason: `sends ${formatAmount(sent, facts.decimals)}, not the refund's ${formatAmount(facts.amountUnits, facts.decimals)}`,
    };
  return { kind: 'accept', matchedBy: tagged ? 'tag' : 'amount', blockTime: tx.blockTime };
}
