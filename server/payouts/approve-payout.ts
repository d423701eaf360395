import type { Payout as PayoutBody } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { movePayout } from './move-payout';
import type { PayoutActor } from './payout-audit';

/**
 * A member with payouts:approve approves a DRAFT batch, which is then APPROVED and its deadline
 * runs. When the account asked for two people (`approvalsRequired` 2 when the batch was made), its
 * creator is the first and another member the second: the creator approving is a 409, whatever
 * API key it uses. The batch row is locked, so two approvals at once approve it once.
 */
export function approvePayout(
  deps: Deps,
  input: { merchantId: string; id: string; actor: NonNullable<PayoutActor> },
): Promise<PayoutBody> {
  return movePayout(deps, input, {
    from: ['DRAFT'],
    refusal: (status) => `The payout is ${status}, not DRAFT`,
    cause: 'approved',
    to: 'APPROVED',
    change: async (payout, now, transaction) => {
      if (payout.approvalsRequired === 2 && payout.createdBy === input.actor.member.id)
        throw ApiError.conflict(
          'This account asks for two people on each payout: its creator is the first, another member with payouts:approve approves it',
        );
      await deps.db.sequelize.query(
        'INSERT INTO payout_approvals (payout_id, member_id, created_at) VALUES ($payoutId, $memberId, $at)',
        { bind: { payoutId: payout.id, memberId: input.actor.member.id, at: now }, transaction },
      );
      payout.approvedAt = now;
      payout.deadlineAt = new Date(now.getTime() + deps.config.PAYOUT_DEADLINE_SECONDS * 1000);
      payout.nextCheckAt = payout.deadlineAt;
      return { deadlineAt: payout.deadlineAt };
    },
  });
}
