import type { ObservedTransaction } from '../chains/chain-adapter';
import type { PaymentClaim } from '../db/models';
import type { Deps } from '../deps';
import { recordCreation } from '../events/lifecycle';
import { CLAIM_LIFECYCLE } from '../orders/claim-lifecycle';
import type { Verdict } from './judge-claim';
import { settleClaim } from './settle-claim';

/**
 * Credits a final transaction the scanner found to the order its tag or exact amount names, with
 * the order locked. A report of this very transaction for this order, committed since the scanner
 * looked for reports (a wallet reports as it sends), is the payment's claim: it is settled here
 * with what the scanner read, instead of a claim of the scanner's own beside it, which would take
 * the transaction's one credit and leave the report open for good, holding the order CONFIRMING.
 * Returns the verdict; 'held' while the verifier is checking that report (its verdict stands, the
 * scanner comes back to the transaction); null when the order is gone.
 */
export async function creditFound(
  deps: Deps,
  found: { orderId: string; network: PaymentClaim['network']; txId: string },
  tx: ObservedTransaction,
): Promise<Verdict['kind'] | 'held' | null> {
  const { models, sequelize } = deps.db;
  return sequelize.transaction(async (transaction) => {
    const order = await models.Order.findByPk(found.orderId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!order) return null;
    const now = deps.clock();
    // Reports are made with the order locked (submit-payment-claim.ts): none can come in after this.
    const reported = await models.PaymentClaim.findOne({
      where: { orderId: order.id, network: found.network, txId: found.txId, status: 'PENDING' },
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (reported) {
      if (reported.lockedUntil !== null && reported.lockedUntil > now) return 'held';
      reported.lockedBy = null;
      reported.lockedUntil = null;
      return settleClaim(deps, transaction, order, reported, tx);
    }
    const claim = await models.PaymentClaim.create(
      {
        orderId: order.id,
        network: found.network,
        txId: found.txId,
        source: 'scanner',
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
    await recordCreation(deps, transaction, CLAIM_LIFECYCLE, claim, { cause: 'found', actor: 'system' });
    return settleClaim(deps, transaction, order, claim, tx);
  });
}
