import type { RefundTarget } from '../chains/chain-adapter';
import type { Order, Refund } from '../db/models';
import { optionOf } from '../orders/payment-options';

/** What the chain needs to build, link and find a refund; null while it has no address. */
export function refundTarget(refund: Refund, order: Order): RefundTarget | null {
  if (refund.toAddress === null) return null;
  const option = optionOf(order, refund.optionIndex);
  return {
    id: refund.id,
    tag: refund.tag,
    token: option.token,
    tokenMint: refund.tokenMint,
    decimals: option.decimals,
    from: refund.fromAddress,
    to: refund.toAddress,
    amountUnits: refund.amountUnits,
  };
}
