import type { ChainAdapter, ObservedTransaction } from '../chains/chain-adapter';
import type { Deps } from '../deps';
import { senderTo, type PaymentScope } from './credited-to';
import { recordUnattributed } from './unattributed-payments';

/**
 * Keeps a final transfer to a merchant's wallet that pays none of its orders, for the merchant to
 * see and attribute (listUnattributed), in its token's own terms; one of a token the network no
 * longer lists is left alone.
 */
export async function keepUnattributed(
  deps: Deps,
  chain: ChainAdapter,
  found: PaymentScope & { txId: string },
  tx: Extract<ObservedTransaction, { transfers: unknown }>,
  amount: bigint,
): Promise<void> {
  const token = chain.tokens().find((t) => t.contract === found.tokenMint);
  if (!token) return;
  await recordUnattributed(deps, {
    merchantId: found.merchantId,
    network: chain.network,
    txId: found.txId,
    recipient: found.recipient,
    token: token.token,
    tokenMint: token.contract,
    decimals: token.decimals,
    sender: senderTo(tx.transfers, found.recipient, found.tokenMint),
    amountUnits: amount,
    blockTime: tx.blockTime,
  });
  deps.logger.info(
    { network: chain.network, txId: found.txId, recipient: found.recipient },
    'payment matches no order: kept unattributed',
  );
}
