import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { OrderStatus } from '../../contract';
import type { ObservedTransaction, Transfer } from '../chains/chain-adapter';
import type { Merchant, Order, PaymentClaim } from '../db/models';
import type { Deps } from '../deps';
import { formatAmount } from '../../contract/decimal';
import { ORDER_LIFECYCLE } from '../orders/order-lifecycle';
import { applyTransition } from '../events/lifecycle';
import { CLAIM_LIFECYCLE } from '../orders/claim-lifecycle';
import { payableNow } from '../orders/payable';
import { HOLDS_PAST_EXPIRY_SQL } from '../orders/order-status';
import {
  amountEvidence,
  type AmountMatch,
  CLOCK_SKEW_MS,
  creditedTo,
  orderNamed,
  ordersPaidExactly,
  senderTo,
  transfersTo,
  untaggedCreatedBy,
} from './credited-to';
import {
  optionDueUnits,
  optionsOf,
  shortfallSumUnits,
  sumDecimalsOf,
  toSumUnits,
  type PaymentOption,
} from '../orders/payment-options';
import { holdAmountsDue } from '../orders/unique-amount';
import { recipientOwner } from './recipient-owner';
import { markAttributed } from './unattributed-payments';
import { presentClaim, presentPayment } from './present-payment';
import { paysOrder, toleranceBps } from './underpayment-tolerance';

export type MatchedBy = 'tag' | 'amount' | 'claim';

/** The longest wait between two reads of a transaction the chain does not know (yet). */
export const NOT_FOUND_BACKOFF_MAX_MS = 5 * 60_000;

/** What the transaction sent to one of the order's options, in that option's base units. */
type Transferred = { credited: bigint; blockTime: Date | null; sender: string | null; option: PaymentOption };

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

const NO_FACTS: ClaimFacts = {
  named: null,
  paidExactly: [],
  creditedElsewhere: null,
  ownsRecipient: true,
  provenSender: null,
};

/** What a settled claim becomes, and why its claim and its order move, per verdict. */
const CLOSED_AS = { accept: 'VERIFIED', reject: 'REJECTED', unproven: 'UNPROVEN' } as const;
const CAUSE_OF = { accept: 'credited', reject: 'rejected', unproven: 'unproven' } as const;

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
  const [open] = await deps.db.sequelize.query<{ pending: string; holding: string }>(
    `SELECT count(*) AS pending, count(*) FILTER (WHERE ${HOLDS_PAST_EXPIRY_SQL}) AS holding
       FROM payment_claims WHERE order_id = :orderId AND status = 'PENDING'`,
    { type: QueryTypes.SELECT, replacements: { orderId: order.id }, transaction },
  );
  const expired = deps.clock() > order.expiresAt;
  if (Number(open!.holding) > 0 || (!expired && Number(open!.pending) > 0)) return 'CONFIRMING';
  if (expired) return 'EXPIRED';
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
  const verdict = judge(deps, order, claim, tx, await claimFacts(deps, transaction, order, claim, tx));
  claim.attempts += 1;
  claim.updatedAt = now;

  if (verdict.kind === 'wait') {
    claim.nextCheckAt = new Date(now.getTime() + verdict.retryInMs);
    await claim.save({ transaction });
    return 'wait';
  }

  // The claim is closed with what the chain said (its own move, in the order's timeline)...
  if (verdict.kind !== 'accept') claim.reason = verdict.reason;
  if (verdict.kind !== 'reject') {
    claim.amountUnits = verdict.credited;
    claim.blockTime = verdict.blockTime;
    claim.sender = verdict.sender;
    claim.optionIndex = verdict.option.index;
  }
  const sumDecimals = sumDecimalsOf(order);
  const partlyPaidBefore = order.amountReceivedUnits > 0n;
  if (verdict.kind === 'accept') {
    claim.matchedBy = verdict.matchedBy;
    await markAttributed(deps, transaction, {
      network: claim.network,
      txId: claim.txId,
      orderId: order.id,
      recipient: verdict.option.recipient,
      tokenMint: verdict.option.tokenMint,
    });
    // Summed exactly in the order's sum units, whatever the option's decimals.
    order.amountReceivedUnits += toSumUnits(verdict.credited, verdict.option.decimals, sumDecimals);
    order.txId = claim.txId;
    order.paidWith ??= verdict.option.index;
  }
  const cause = CAUSE_OF[verdict.kind];
  const transfer = (v: Transferred) => ({
    amount: formatAmount(v.credited, v.option.decimals),
    ...(order.paymentOptions ? { network: v.option.network, token: v.option.token } : {}),
    from: v.sender,
    blockTime: v.blockTime?.toISOString() ?? null,
  });
  await applyTransition(deps, transaction, CLAIM_LIFECYCLE, claim, {
    cause,
    to: CLOSED_AS[verdict.kind],
    actor: 'system',
    data:
      verdict.kind === 'accept'
        ? {
            txId: claim.txId,
            ...transfer(verdict),
            amountReceived: formatAmount(order.amountReceivedUnits, sumDecimals),
            matchedBy: verdict.matchedBy,
            source: claim.source,
          }
        : verdict.kind === 'unproven'
          ? { txId: claim.txId, ...transfer(verdict), reason: verdict.reason }
          : { txId: claim.txId, reason: verdict.reason },
  });

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
    cause,
    to: next,
    actor: 'system',
    reason,
    data,
    extra: { extra, merchant: merchant ?? undefined },
  });
  return verdict.kind;
}

/**
 * What the database and the claim's proof say of a final transaction (ClaimFacts), for `judge`.
 * Other orders are the same merchant's, to the same recipient and token: a transfer to a wallet is
 * evidence for its owner's orders only.
 */
async function claimFacts(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'chains'>,
  transaction: Transaction,
  order: Order,
  claim: PaymentClaim,
  tx: ObservedTransaction,
): Promise<ClaimFacts> {
  if (tx.state !== 'final') return NO_FACTS;
  const option = creditedOption(order, claim.network, tx.transfers);
  if (!option) return NO_FACTS;
  const { Order: Orders, PaymentClaim: Claims } = deps.db.models;
  const [owner, credited] = await Promise.all([
    recipientOwner(deps, option.network, option.recipient, transaction),
    Claims.findOne({
      where: { network: claim.network, txId: claim.txId, status: 'VERIFIED', orderId: { [Op.ne]: order.id } },
      attributes: ['orderId'],
      transaction,
    }),
  ]);
  const creditedElsewhere = credited
    ? ((await Orders.findByPk(credited.orderId, { attributes: ['reference'], transaction }))?.reference ??
      '?')
    : null;
  const facts: ClaimFacts = {
    ...NO_FACTS,
    ownsRecipient: owner === order.merchantId,
    creditedElsewhere,
    provenSender: await provenSender(deps, order, option, claim, tx),
  };
  if (tx.tags.includes(order.reference)) return facts;
  // Other orders of the merchant with an option to the same wallet and token.
  const scope = {
    network: option.network,
    merchantId: order.merchantId,
    recipient: option.recipient,
    tokenMint: option.tokenMint,
  };
  const named = await orderNamed(deps.db, scope, tx.tags, { except: order.id, transaction });
  // The other orders the scanner would weigh against this one for the transfer (made by its time).
  const paidExactly = await ordersPaidExactly(
    deps.db,
    scope,
    creditedTo(tx.transfers, option.recipient, option.tokenMint),
    { payable: payableNow(deps), createdBy: untaggedCreatedBy(tx.blockTime), except: order.id, transaction },
  );
  return {
    ...facts,
    named: named?.reference ?? null,
    paidExactly: paidExactly.map(({ reference, unique }) => ({ reference, unique })),
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

/** The wallet among the transfer's senders that signed the claim's proof message, if one did. */
async function provenSender(
  deps: Pick<Deps, 'chains'>,
  order: Order,
  option: PaymentOption,
  claim: PaymentClaim,
  tx: Extract<ObservedTransaction, { transfers: unknown }>,
): Promise<string | null> {
  if (!claim.proofSignature || !claim.proofMessage) return null;
  const chain = deps.chains.display(option.network);
  const senders = new Set(transfersTo(tx.transfers, option.recipient, option.tokenMint).map((t) => t.from));
  for (const sender of senders)
    if (sender && (await chain.verifyMessage(claim.proofMessage, claim.proofSignature, sender)))
      return sender;
  return null;
}
