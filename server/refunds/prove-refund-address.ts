import { Op, type Transaction } from 'sequelize';
import { refundAddressProofMessage, refundHoldsAmount, type Network } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { creditedSenders } from '../payments/credited-senders';

/** Who signed a refund address, and what that wallet paid on the refund's option. */
export type RefundAddressProof = {
  signedBy: string;
  /** The signer's verified payments to the order on the refund's option, in its token's base units. */
  paidUnits: bigint;
};

type ProvedRefund = {
  id: string;
  network: Network;
  orderId: string;
  optionIndex: number;
  amountUnits: bigint;
};

/**
 * The wallet that signed `stablepay refund <refundId> <address>` (the address exactly as the body
 * sends it), among those that sent a payment credited to the order: proof that a payer, not just
 * anyone who knows the refund id, gives the address (whether that approves it: signatureApproves).
 * A 400 at body.signature when no payer signed, saying why. The signature is of the network's form
 * already (the caller checks it).
 */
export async function proveRefundAddress(
  deps: Pick<Deps, 'db' | 'chains'>,
  input: {
    refund: ProvedRefund;
    address: string;
    signature: string;
  },
): Promise<RefundAddressProof> {
  const { refund } = input;
  const chain = deps.chains.get(refund.network);
  const senders = await creditedSenders(deps, refund.orderId, refund.optionIndex);
  if (senders.length === 0)
    throw ApiError.field(
      'body.signature',
      'cannot be checked: no payment credited to this order has a known sender. Give the address without a signature: the merchant then approves it',
    );
  const message = refundAddressProofMessage(refund.id, input.address);
  for (const { sender, paidUnits } of senders)
    if (await chain.verifyMessage(message, input.signature, sender)) return { signedBy: sender, paidUnits };
  throw ApiError.field(
    'body.signature',
    `is not a signature of "${message}" by a wallet that sent a payment credited to this order. Sign that message with the wallet you paid from, or give the address without a signature: the merchant then approves it`,
  );
}

/**
 * The one rule: a payer's signature approves a refund address at once only when what the signing
 * wallet paid on the refund's option (token and network, in its base units, as the refund's amount)
 * less the order's other refunds it signed for or that go to it (those still holding an amount,
 * whoever approved them) covers the refund.
 * Anyone can become a payer with a tagged transfer of one base unit; of several payers each paid a
 * part; and a payer must not take more than it paid by signing several refunds. Read in the
 * caller's transaction, under the order's lock, so two signed refunds cannot both count the same
 * money. `leftUnits`: what the signer's payments still cover.
 */
export async function signatureApproves(
  deps: Pick<Deps, 'db'>,
  transaction: Transaction,
  refund: ProvedRefund,
  proof: RefundAddressProof,
  now: Date,
): Promise<{ approves: boolean; leftUnits: bigint }> {
  const before = await deps.db.models.Refund.findAll({
    where: {
      orderId: refund.orderId,
      optionIndex: refund.optionIndex,
      id: { [Op.ne]: refund.id },
      [Op.or]: [{ signedBy: proof.signedBy }, { toAddress: proof.signedBy }],
    },
    attributes: ['status', 'amountUnits', 'lateUntil'],
    transaction,
  });
  const approvedBefore = before
    .filter((r) => refundHoldsAmount(r, now))
    .reduce((sum, r) => sum + r.amountUnits, 0n);
  const leftUnits = proof.paidUnits - approvedBefore;
  return { approves: leftUnits >= refund.amountUnits, leftUnits };
}
