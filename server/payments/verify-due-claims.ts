import { QueryTypes } from 'sequelize';
import type { Network } from '../../contract';
import type { Deps } from '../deps';
import { ChainUnavailableError } from '../chains/chain-errors';
import { settleClaim } from './settle-claim';

/** How long a worker holds a claim while it reads the chain; a dead worker's claims come back after it. */
const LEASE_SECONDS = 60;

/**
 * One bounded batch of reported transactions due for a check: leased with SKIP LOCKED (several
 * instances share the work), read from the chain outside any database transaction, then settled
 * with the order and claim locked and re-checked.
 */
export async function verifyDueClaims(deps: Deps, opts: { batchSize: number }): Promise<number> {
  const { sequelize, models } = deps.db;
  const due = await sequelize.query<{ id: string; network: string; tx_id: string }>(
    `UPDATE payment_claims SET next_check_at = now() + make_interval(secs => :lease)
      WHERE id IN (
        SELECT id FROM payment_claims
         WHERE status = 'PENDING' AND next_check_at <= now()
         ORDER BY next_check_at LIMIT :batch
         FOR UPDATE SKIP LOCKED)
      RETURNING id, network, tx_id`,
    { type: QueryTypes.SELECT, replacements: { lease: LEASE_SECONDS, batch: opts.batchSize } },
  );

  for (const row of due) {
    const chain = deps.chains.get(row.network as Network);
    let observed;
    try {
      observed = await chain.readTransaction(row.tx_id);
    } catch (error) {
      // The chain cannot be reached: try again later, without counting against the claim's deadline.
      if (!(error instanceof ChainUnavailableError)) throw error;
      deps.logger.warn({ txId: row.tx_id, err: error.message }, 'payment check postponed');
      await models.PaymentClaim.update(
        { nextCheckAt: new Date(deps.clock().getTime() + deps.config.PAYMENT_RECHECK_MS) },
        { where: { id: row.id, status: 'PENDING' } },
      );
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
      if (!order || claim.status !== 'PENDING') return;
      await settleClaim(deps, transaction, order, claim, observed);
    });
  }
  return due.length;
}
