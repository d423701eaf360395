import type { Transaction } from 'sequelize';
import type { Order, PaymentClaim } from '../db/models';
import type { Deps } from '../deps';
import { formatAmount } from '../../contract/decimal';
import { applyTransition } from '../events/lifecycle';
import { CLAIM_LIFECYCLE } from '../orders/claim-lifecycle';
import { sumDecimalsOf, toSumUnits } from '../orders/payment-options';
import type { Transferred, Verdict } from './judge-claim';
import { markAttributed } from './unattributed-payments';

/** What a settled claim becomes, and why its claim and its order move, per verdict. */
const CLOSED_AS = { accept: 'VERIFIED', reject: 'REJECTED', unproven: 'UNPROVEN' } as const;

export const CAUSE_OF = { accept: 'credited', reject: 'rejected', unproven: 'unproven' } as const;

/** A verdict that closes its claim: every one but `wait`. */
export type ClosingVerdict = Exclude<Verdict, { kind: 'wait' }>;

/**
 * Closes a claim with what the chain said, in the caller's transaction (its own move, in the
 * order's timeline); an accepted payment is credited to the order first, in the order's sum units.
 */
export async function closeClaim(
  deps: Deps,
  transaction: Transaction,
  order: Order,
  claim: PaymentClaim,
  verdict: ClosingVerdict,
): Promise<void> {
  if (verdict.kind !== 'accept') claim.reason = verdict.reason;
  if (verdict.kind !== 'reject') {
    claim.amountUnits = verdict.credited;
    claim.blockTime = verdict.blockTime;
    claim.sender = verdict.sender;
    claim.optionIndex = verdict.option.index;
  }
  const sumDecimals = sumDecimalsOf(order);
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
  const transfer = (v: Transferred) => ({
    amount: formatAmount(v.credited, v.option.decimals),
    ...(order.paymentOptions ? { network: v.option.network, token: v.option.token } : {}),
    from: v.sender,
    blockTime: v.blockTime?.toISOString() ?? null,
  });
  await applyTransition(deps, transaction, CLAIM_LIFECYCLE, claim, {
    cause: CAUSE_OF[verdict.kind],
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
}
