import type { BatchCall, ObservedTransaction, Transfer } from '../chains/chain-adapter';
import type { RefundFacts, RefundVerdict } from '../refunds/judge-refund';
import { formatAmount } from '../../contract/decimal';

/** What the verifier knows of an item paid through a batch contract: a refund's facts, its window aside. */
export type BatchItemFacts = Omit<RefundFacts, 'sendableSince'>;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Whether a pay() call of a payout batch contract pays the item. Only the account's verified
 * contract counts (`verified`, null when it has none): a look-alike's Paid events, or tokens it
 * moved, confirm nothing. The call names the item by its tag; it pays it when the contract's Paid
 * event for that tag says the item's token, address and amount, and the token's own Transfer log
 * between that event and the one before it moved exactly that from the paying wallet to that
 * address. A final call that names the item and pays it otherwise (short, to another address, or
 * failed) is a rejection; a call that does not name it is not its transaction.
 */
export function judgeBatchItem(
  facts: BatchItemFacts,
  tx: ObservedTransaction & { batchCall: BatchCall },
  verified: string | null,
): RefundVerdict {
  if (tx.state === 'not_found' || tx.state === 'not_final')
    return { kind: 'wait', reason: `transaction ${tx.state.replace('_', ' ')}` };
  const call = tx.batchCall;
  if (!verified || !same(call.contract, verified) || !call.tags.includes(facts.tag))
    return { kind: 'ignore' };
  if (tx.state === 'failed') return { kind: 'reject', reason: 'transaction failed on chain' };
  const paid = pairedPayments(call, tx.transfers).filter((p) => p.tag === facts.tag);
  const amount = (units: bigint) => formatAmount(units, facts.decimals);
  if (paid.length !== 1)
    return { kind: 'reject', reason: `names the item but the batch contract paid it ${paid.length} times` };
  const [{ event, transfer }] = paid as [(typeof paid)[number]];
  if (
    !same(event.token, facts.tokenMint) ||
    !same(event.to, facts.to) ||
    event.amountUnits !== facts.amountUnits
  )
    return {
      kind: 'reject',
      reason: `pays ${amount(event.amountUnits)} of ${event.token} to ${event.to}, not the item's ${amount(facts.amountUnits)} to ${facts.to}`,
    };
  if (!transfer || !transfer.from || !same(transfer.from, facts.from))
    return { kind: 'reject', reason: `no transfer of it from the paying wallet ${facts.from}` };
  return { kind: 'accept', matchedBy: 'tag', blockTime: tx.blockTime };
}

/**
 * Each Paid event with the token Transfer that made it: between the event and the one before it,
 * of the event's token, to its address, of its amount (the contract transfers, then emits).
 */
function pairedPayments(call: BatchCall, transfers: Transfer[]) {
  const events = [...call.paid].sort((a, b) => a.position - b.position);
  const used = new Set<Transfer>();
  return events.map((event, i) => {
    const after = i === 0 ? -1 : events[i - 1]!.position;
    const transfer =
      transfers.find(
        (t) =>
          !used.has(t) &&
          t.position > after &&
          t.position < event.position &&
          same(t.token, event.token) &&
          same(t.to, event.to) &&
          t.amountUnits === event.amountUnits,
      ) ?? null;
    if (transfer) used.add(transfer);
    return { tag: event.tag, event, transfer };
  });
}
