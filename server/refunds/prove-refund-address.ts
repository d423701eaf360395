import { refundAddressProofMessage, type Network } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { creditedSenders } from '../payments/credited-senders';

/**
 * The wallet that signed `stablepay refund <refundId> <address>` (the address exactly as the body
 * sends it), among those that sent a payment credited to the order: proof that the payer, not just
 * anyone who knows the refund id, gives the address. A 400 at body.signature otherwise, saying why.
 * The signature is of the network's form already (the caller checks it).
 */
export async function proveRefundAddress(
  deps: Pick<Deps, 'db' | 'chains'>,
  input: { refundId: string; network: Network; orderId: string; address: string; signature: string },
): Promise<string> {
  const chain = deps.chains.get(input.network);
  const senders = await creditedSenders(deps, input.orderId);
  if (senders.length === 0)
    throw ApiError.field(
      'body.signature',
      'cannot be checked: no payment credited to this order has a known sender. Give the address without a signature: the merchant then approves it',
    );
  const message = refundAddressProofMessage(input.refundId, input.address);
  for (const sender of senders)
    if (await chain.verifyMessage(message, input.signature, sender)) return sender;
  throw ApiError.field(
    'body.signature',
    `is not a signature of "${message}" by a wallet that sent a payment credited to this order. Sign that message with the wallet you paid from, or give the address without a signature: the merchant then approves it`,
  );
}
