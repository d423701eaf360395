import { QueryTypes } from 'sequelize';
import type { Job } from '../jobs/job';
import { verifyPayout } from './verify-payout';

/**
 * Batches being paid: those with a reported transaction not yet final, and those whose deadline
 * passed, a bounded number per run (verify-payout.ts locks each batch while it writes, so instances
 * running it side by side settle each item once).
 */
export const verifyPayoutsJob: Job = {
  name: 'verify-payouts',
  schedule: (config) => config.JOB_VERIFY_PAYOUTS_CRON,
  async run(deps) {
    const due = await deps.db.sequelize.query<{ id: string }>(
      `SELECT p.id FROM payouts p
        WHERE p.status IN ('APPROVED', 'SENDING')
          AND (p.deadline_at <= :now
               OR EXISTS (SELECT 1 FROM payout_transactions t WHERE t.payout_id = p.id AND t.settled_at IS NULL))
        ORDER BY p.updated_at LIMIT :limit`,
      { type: QueryTypes.SELECT, replacements: { now: deps.clock(), limit: deps.config.JOB_BATCH_SIZE } },
    );
    for (const row of due) await verifyPayout(deps, row.id);
    return due.length;
  },
};
