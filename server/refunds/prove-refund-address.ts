import { refundAddressProofMessage, type Network } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { creditedSenders } from '../payments/credited-senders';

/** Who signed a refund address, what that wallet paid on the refund's option, and whether that approves it. */
export type RefundAddressProof = {
  signedBy: string;
  /** The signer's verified payments to the order on the refund's option, in its token's base units. */
  paidUnits: bigint;
  /** The one rule: the signer's own payments cover the refund (so a dust payment approves nothing). */
  approves: boolean;
};

/**
 * The wallet that signed `stablepay refund <refundId> <address>` (the address exactly as the body
 * sends it), among those that sent a payment credited to the order: proof that a payer, not just
 * anyone who knows the refund id, gives the address. It approves the address at once only when the
 * signer's own verified payments on the refund's option (token and network, its base units, as the
 * refund's amount) come to at least the refund's amount: anyone can become a payer with a tagged
 * transfer of one base unit, and of several payers each paid only a part. A 400 at body.signature
 * when no payer signed, saying why. The signature is of the network's form already (the caller checks it).
 */
export async function proveRefundAddress(
  deps: Pick<Deps, 'db' | 'chains'>,
  input: {
    refund: { id: string; network: Network; orderId: string; optionIndex: number; amountUnits: bigint };
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
    if (await chain.verifyMessage(message, input.signature, sender))
      return { signedBy: sender, paidUnits, approves: paidUnits >= refund.amountUnits };
  throw ApiError.field(
    'body.signature',
    `is not a signature of "${message}" by a wallet that sent a payment credited to this order. Sign that message with the wallet you paid from, or give the address without a signature: the merchant then approves it`,
  );
}
