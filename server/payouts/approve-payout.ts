import type { Payout as PayoutBody } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { applyTransition } from '../events/lifecycle';
import { findPayout } from './find-payout';
import { recordPayoutAudit, type PayoutActor } from './payout-audit';
import { PAYOUT_LIFECYCLE } from './payout-lifecycle';
import { presentPayout } from './present-payout';

/**
 * A member with payouts:approve approves a DRAFT batch, which is then APPROVED and its deadline
 * runs. When the account asked for two people (`approvalsRequired` 2 when the batch was made), its
 * creator is the first and another member the second: the creator approving is a 409, whatever
 * API key it uses. The batch row is locked, so two approvals at once approve it once.
 */
export async function approvePayout(
  deps: Deps,
  input: { merchantId: string; id: string; actor: NonNullable<PayoutActor> },
): Promise<PayoutBody> {
  return deps.db.sequelize.transaction(async (transaction) => {
    const payout = await findPayout(
      deps,
      { id: input.id, merchantId: input.merchantId },
      { transaction, lock: true },
    );
    if (payout.status !== 'DRAFT') throw ApiError.conflict(`The payout is ${payout.status}, not DRAFT`);
    if (payout.approvalsRequired === 2 && payout.createdBy === input.actor.member.id)
      throw ApiError.conflict(
        'This account asks for two people on each payout: its creator is the first, another member with payouts:approve approves it',
      );
    const now = deps.clock();
    await deps.db.sequelize.query(
      'INSERT INTO payout_approvals (payout_id, member_id, created_at) VALUES ($payoutId, $memberId, $at)',
      { bind: { payoutId: payout.id, memberId: input.actor.member.id, at: now }, transaction },
    );
    payout.approvedAt = now;
    payout.deadlineAt = new Date(now.getTime() + deps.config.PAYOUT_DEADLINE_SECONDS * 1000);
    payout.nextCheckAt = payout.deadlineAt;
    await recordPayoutAudit(
      deps,
      transaction,
      {
        payoutId: payout.id,
        type: 'payout.approved',
        actor: input.actor,
        data: { deadlineAt: payout.deadlineAt },
      },
      now,
    );
    await applyTransition(deps, transaction, PAYOUT_LIFECYCLE, payout, {
      cause: 'approved',
      to: 'APPROVED',
      actor: input.actor,
    });
    return presentPayout(deps, payout, transaction);
  });
}
