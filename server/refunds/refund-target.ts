import type { RefundTarget } from '../chains/chain-adapter';
import type { Order, Refund } from '../db/models';

/** What the chain needs to build, link and find a refund; null while it has no address. */
export function refundTarget(
  refund: Refund,
  order: Pick<Order, 'token' | 'tokenDecimals'>,
): RefundTarget | null {
  if (refund.toAddress === null) return null;
  return {
    id: refund.id,
    tag: refund.tag,
    token: order.token,
    tokenMint: refund.tokenMint,
    decimals: order.tokenDecimals,
    from: refund.fromAddress,
    to: refund.toAddress,
    amountUnits: refund.amountUnits,
  };
}
