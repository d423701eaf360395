import type { ObservedTransaction } from '../chains/chain-adapter';
import type { Deps } from '../deps';
import type { Verdict } from './judge-claim';
import { settleClaim } from './settle-claim';

/**
 * Settles a reported payment's open claim with what was just read from the chain, the order and
 * the claim locked: by `owner`, the worker holding its lease (the verifier); by anyone (owner
 * null, the scanner that found it final) while no worker holds it. Returns the verdict, or null
 * when the claim is no longer open or is another worker's to settle.
 */
export async function settleReportedClaim(
  deps: Deps,
  claimId: string,
  observed: ObservedTransaction,
  owner: string | null,
): Promise<Verdict['kind'] | null> {
  const { sequelize, models } = deps.db;
  return sequelize.transaction(async (transaction) => {
    const claim = await models.PaymentClaim.findByPk(claimId, { transaction });
    if (!claim || claim.status !== 'PENDING') return null;
    const order = await models.Order.findByPk(claim.orderId, { transaction, lock: transaction.LOCK.UPDATE });
    await claim.reload({ transaction, lock: transaction.LOCK.UPDATE });
    if (!order || claim.status !== 'PENDING') return null;
    // A worker that stalled past its lease, or a scanner while the verifier holds it: the holder's
    // verdict stands.
    const held = claim.lockedUntil !== null && claim.lockedUntil > deps.clock();
    if (owner === null ? held : claim.lockedBy !== owner) return null;
    claim.lockedBy = null;
    claim.lockedUntil = null;
    return settleClaim(deps, transaction, order, claim, observed);
  });
}

/**
 * Settles the reports of this transaction still being checked, as the verifier would, rather than
 * at their next check (the payments behind it on the cursor would wait for that). Returns false
 * while the verifier holds one of them: the cursor then stays before the transaction.
 */
export async function settleReportsOf(
  deps: Deps,
  network: string,
  txId: string,
  tx: ObservedTransaction,
): Promise<boolean> {
  const open = await deps.db.models.PaymentClaim.findAll({
    where: { network, txId, status: 'PENDING' },
    attributes: ['id'],
    order: [['id', 'ASC']],
  });
  let settledAll = true;
  for (const claim of open) {
    const verdict = await settleReportedClaim(deps, claim.id, tx, null);
    if (verdict === null || verdict === 'wait') settledAll = false;
  }
  return settledAll;
}
