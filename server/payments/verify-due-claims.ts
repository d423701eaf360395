import { UniqueConstraintError } from 'sequelize';
import type { Network } from '../../contract';
import { ChainUnavailableError } from '../chains/chain-errors';
import type { Deps } from '../deps';
import { leaseJobBatch, releaseLease, type JobBatch } from '../db/lease';
import { settleReportedClaim } from './settle-reported-claim';

/**
 * One bounded batch of reported transactions due for a check: leased by this worker (several
 * instances share the work), read from the chain outside any database transaction, then settled
 * with the order and claim locked, only while this worker still holds the claim's lease.
 */
export async function verifyDueClaims(deps: Deps, opts: JobBatch): Promise<number> {
  const due = await leaseJobBatch(deps, opts, {
    table: 'payment_claims',
    statuses: ['PENDING'],
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
    try {
      await settleReportedClaim(deps, row.id, observed, opts.owner);
    } catch (error) {
      // Credited to another order at the same moment (the scanner, another report): this claim is
      // judged again when its lease runs out, and then sees that.
      if (!(error instanceof UniqueConstraintError)) throw error;
      deps.logger.info({ txId: row.tx_id }, 'payment check raced a credit elsewhere: checked again later');
    }
  }
  return due.length;
}
