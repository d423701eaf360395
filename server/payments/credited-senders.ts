import type { Deps } from '../deps';

/**
 * The wallets that sent the transfers credited to an order (its payments ledger's `from`): the
 * payer, as far as the chain tells. A refund address signed by one of them needs no approval.
 */
export async function creditedSenders(deps: Pick<Deps, 'db'>, orderId: string): Promise<string[]> {
  const claims = await deps.db.models.PaymentClaim.findAll({
    where: { orderId, status: 'VERIFIED' },
    attributes: ['sender'],
  });
  return [...new Set(claims.flatMap((claim) => (claim.sender ? [claim.sender] : [])))];
}
