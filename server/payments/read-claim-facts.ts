import { Op, type Transaction } from 'sequelize';
import type { ObservedTransaction } from '../chains/chain-adapter';
import type { Order, PaymentClaim } from '../db/models';
import type { Deps } from '../deps';
import { payableNow } from '../orders/payable';
import type { PaymentOption } from '../orders/payment-options';
import { creditedTo, orderNamed, ordersPaidExactly, transfersTo, untaggedCreatedBy } from './credited-to';
import { type ClaimFacts, creditedOption, NO_FACTS } from './judge-claim';
import { recipientOwner } from './recipient-owner';

/**
 * What the database and the claim's proof say of a final transaction (ClaimFacts), for `judge`.
 * Other orders are the same merchant's, to the same recipient and token: a transfer to a wallet is
 * evidence for its owner's orders only.
 */
export async function readClaimFacts(
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
