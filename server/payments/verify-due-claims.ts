import type { Network } from '../../contract';
import { ChainUnavailableError } from '../chains/chain-errors';
import type { Deps } from '../deps';
import { leaseDueRows, releaseLease } from '../db/lease';
import { settleClaim } from './settle-claim';

/**
 * One bounded batch of reported transactions due for a check: leased by this worker (several
 * instances share the work), read from the chain outside any database transaction, then settled
 * with the order and claim locked, only while this worker still holds the claim's lease.
 */
export async function verifyDueClaims(
  deps: Deps,
  opts: { batchSize: number; owner: string; network?: string },
): Promise<number> {
  const { sequelize, models } = deps.db;
  const due = await leaseDueRows(deps, {
    table: 'payment_claims',
    network: opts.network,
    statuses: ['PENDING'],
    limit: opts.batchSize,
    owner: opts.owner,
    seconds: deps.config.JOB_LEASE_SECONDS,
    returning: ['id', 'network', 'tx_id'],
  });

  for (const row of due) {
    let observed;
    try {
      observed = await deps.chains.forChecks(row.network as Network).readTransaction(row.tx_id);
    } catch (error) {
      // The chain cannot be reached: try again later, without counting against the claim's deadline.
      if (!(error instanceof ChainUnavailableError)) throw error;
      deps.logger.warn({ txId: row.tx_id, err: error.message }, 'payment check postponed');
      await releaseLease(deps, {
        table: 'payment_claims',
        key: { id: row.id },
        owner: opts.owner,
        set: { next_check_at: new Date(deps.clock().getTime() + deps.config.PAYMENT_RECHECK_MS) },
      });
      continue;
    }
    await sequelize.transaction(async (transaction) => {
      const claim = await models.PaymentClaim.findByPk(row.id, { transaction });
      if (!claim || claim.status !== 'PENDING') return;
      const order = await models.Order.findByPk(claim.orderId, {
        transaction,
        lock: transaction.LOCK.UPDATE,
      });
      await claim.reload({ transaction, lock: transaction.LOCK.UPDATE });
      // Another worker took the claim over (this one stalled past its lease): its verdict stands.
      if (!order || claim.status !== 'PENDING' || claim.lockedBy !== opts.owner) return;
      claim.lockedBy = null;
      claim.lockedUntil = null;
      await settleClaim(deps, transaction, order, claim, observed);
    });
  }
  return due.length;
}
