import { Op } from 'sequelize';
import { claimProofMessage, ErrorCode } from '../../contract';
import type { Network } from '../../contract';
import type { ChainAdapter } from '../chains/chain-adapter';
import type { Order, PaymentClaim } from '../db/models';
import { optionsOf } from './payment-options';
import type { ClaimSource } from '../db/models/payment-claim';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import type { Actor, Caller } from '../events/actor';
import { applyTransition, recordCreation } from '../events/lifecycle';
import { CLAIM_LIFECYCLE } from './claim-lifecycle';
import { ORDER_LIFECYCLE } from './order-lifecycle';
import { findOrder } from './find-order';
import { wakeJob } from '../db/wake-up';
import { assertPayable } from './payable';
import { HOLDS_PAST_EXPIRY_SQL } from './order-status';

/** Unsigned reports a payer may have under check for one order at a time (signed ones are not held back). */
export const MAX_OPEN_UNSIGNED_CLAIMS = 3;

/**
 * Records a reported transaction id as a claim to verify against the chain. A claim is never
 * trusted: the order moves to CONFIRMING, and only the verifier may credit it. What a claim may
 * take depends on who makes it (DESIGN.md, "Money safety against other people"): the merchant's
 * word attributes a transfer; a payer's report credits a transfer that neither names the order nor
 * pays its exact amount only with the sending wallet's signature (`signature`). Reports for
 * several orders may be checked side by side: only the credited one holds the transaction, so no
 * report blocks another; one already credited elsewhere is a 409.
 */
export async function submitPaymentClaim(
  deps: Pick<Deps, 'db' | 'chains' | 'clock' | 'config' | 'secrets' | 'cache'>,
  input: {
    reference: string;
    merchantId?: string;
    txId: string;
    /** The transaction's network: one of the order's options' (default: the first whose ids have its form). */
    network?: Network;
    /** The sending wallet's signature of claimProofMessage(reference, txId as sent): payer reports only. */
    signature?: string;
    source: Exclude<ClaimSource, 'scanner'>;
    /** Who reported it for the merchant (sources `merchant` and `x402`); the payer's report has none. */
    by?: Caller;
  },
): Promise<Order> {
  const { models, sequelize } = deps.db;
  const probe = await findOrder(models, { reference: input.reference, merchantId: input.merchantId });
  const { chain, txId } = reportedOn(deps, probe, input);
  const signature = input.signature === undefined ? null : chain.normalizeSignature(input.signature);
  if (input.signature !== undefined && !signature)
    throw ApiError.field('body.signature', chain.signatureFormat);

  return sequelize.transaction(async (transaction) => {
    const order = await findOrder(models, { reference: input.reference }, { transaction, lock: true });
    const now = deps.clock();
    const claims = await models.PaymentClaim.findAll({
      where: { network: chain.network, txId, status: { [Op.in]: ['PENDING', 'VERIFIED', 'UNPROVEN'] } },
      attributes: { include: [[sequelize.literal(HOLDS_PAST_EXPIRY_SQL), 'holds']] },
      transaction,
    });
    if (claims.some((c) => c.status === 'VERIFIED' && c.orderId !== order.id))
      throw ApiError.conflict('This transaction was already credited to another order');
    const mine = claims.filter((c) => c.orderId === order.id);
    // A payer's report without proof: the one kind of claim that holds no order past its expiry.
    const weaker = input.source === 'payer' && !signature;
    // Under check already as such a report: the report with more weight (a signature, the
    // merchant) is given to that claim (one claim per transaction and order), which then holds the
    // order past its expiry as any such report does (HOLDS_PAST_EXPIRY_SQL).
    const unsigned = weaker ? undefined : mine.find((c) => c.status === 'PENDING' && !c.get('holds'));
    // Reported again: nothing new, unless it now comes with more weight.
    if (!unsigned && mine.some((c) => c.status !== 'UNPROVEN' || weaker)) return order;
    assertPayable(order, { now, lateWindowSeconds: deps.config.LATE_PAYMENT_WINDOW_SECONDS });
    // Anyone may report on the public route: made-up ids must not pile up checks on the chain, nor
    // keep the payer's own signed report (or the merchant's) waiting.
    if (weaker) {
      const open = await models.PaymentClaim.count({
        where: {
          orderId: order.id,
          status: 'PENDING',
          [Op.and]: sequelize.literal(`NOT ${HOLDS_PAST_EXPIRY_SQL}`),
        },
        transaction,
      });
      if (open >= MAX_OPEN_UNSIGNED_CLAIMS)
        throw new ApiError(
          ErrorCode.RATE_LIMITED,
          `This order already has ${open} unsigned reported transactions being checked: wait until they are settled, or sign the report with the sending wallet`,
          undefined,
          { 'Retry-After': String(Math.ceil(deps.config.PAYMENT_RECHECK_MS / 1000) + 1) },
        );
    }

    const weight = {
      source: input.source,
      proofMessage: signature ? claimProofMessage(order.reference, input.txId.trim()) : null,
      proofSignature: signature,
    };
    // A merchant's report (an x402 settlement: its API key's) names who made it.
    const actor: Actor = input.source === 'payer' ? 'payer' : (input.by ?? 'system');
    const reported = {
      cause: 'reported' as const,
      to: 'PENDING' as const,
      actor,
      data: {
        txId,
        ...(probe.paymentOptions ? { network: chain.network } : {}),
        ...(input.source === 'payer' ? { signed: !!signature } : {}),
      },
    };
    let claim: PaymentClaim;
    if (unsigned) {
      claim = Object.assign(unsigned, weight, { nextCheckAt: now });
      await applyTransition(deps, transaction, CLAIM_LIFECYCLE, claim, reported);
    } else {
      claim = await models.PaymentClaim.create(
        { orderId: order.id, network: chain.network, txId, ...weight, createdAt: now, updatedAt: now },
        { transaction },
      );
      await recordCreation(deps, transaction, CLAIM_LIFECYCLE, claim, reported);
    }
    await wakeJob(deps.db.sequelize, 'verify-payments', transaction);
    // Past its expiry, a report without proof is checked but does not hold the order.
    const waits = now <= order.expiresAt || !weaker;
    await applyTransition(deps, transaction, ORDER_LIFECYCLE, order, {
      cause: 'reported',
      to: waits ? 'CONFIRMING' : order.status,
      actor,
      reason: 'transaction reported, awaiting on-chain verification',
      data: { txId },
    });
    return order;
  });
}

/**
 * The network a reported transaction is on, and its id in that network's canonical form (EVM:
 * lower case, so one transaction is one id however it is written): the one the report names, which
 * must be one of the order's payment options' networks, else the only one of those whose
 * transaction ids have the reported form (a one-option order: its own network, as always). When
 * several have it (Polygon and BSC, say) the report must name it: a guess would check the wrong
 * chain and reject a real payment.
 */
function reportedOn(
  deps: Pick<Deps, 'chains'>,
  order: Order,
  input: { txId: string; network?: Network },
): { chain: ChainAdapter; txId: string } {
  const networks = [...new Set(optionsOf(order).map((o) => o.network))];
  if (input.network !== undefined && !networks.includes(input.network))
    throw ApiError.field('body.network', `the order is paid on ${networks.join(', ')}, not ${input.network}`);
  const candidates = (input.network ? [input.network] : networks).map((n) => deps.chains.get(n));
  const fitting = candidates.flatMap((chain) => {
    const txId = chain.normalizeTxId(input.txId);
    return txId ? [{ chain, txId }] : [];
  });
  if (fitting.length > 1)
    throw ApiError.field(
      'body.network',
      `is required: the order is paid on ${fitting.map((f) => f.chain.network).join(', ')}, whose transaction ids look alike`,
    );
  if (fitting[0]) return fitting[0];
  throw ApiError.field('body.txId', candidates[0]!.txIdFormat);
}
