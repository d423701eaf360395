import type { Payout as PayoutBody } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { applyTransition } from '../events/lifecycle';
import { findPayout } from './find-payout';
import { recordPayoutAudit, type PayoutActor } from './payout-audit';
import { PAYOUT_LIFECYCLE } from './payout-lifecycle';
import { presentPayout } from './present-payout';

/** Cancels a DRAFT or APPROVED batch; once a transaction was reported (SENDING) or it settled, a 409. */
export async function cancelPayout(
  deps: Deps,
  input: { merchantId: string; id: string; actor: NonNullable<PayoutActor> },
): Promise<PayoutBody> {
  return deps.db.sequelize.transaction(async (transaction) => {
    const payout = await findPayout(
      deps,
      { id: input.id, merchantId: input.merchantId },
      { transaction, lock: true },
    );
    if (payout.status !== 'DRAFT' && payout.status !== 'APPROVED')
      throw ApiError.conflict(`The payout is ${payout.status}: only a DRAFT or APPROVED one can be canceled`);
    const now = deps.clock();
    payout.canceledAt = now;
    payout.nextCheckAt = null;
    await recordPayoutAudit(
      deps,
      transaction,
      { payoutId: payout.id, type: 'payout.canceled', actor: input.actor },
      now,
    );
    await applyTransition(deps, transaction, PAYOUT_LIFECYCLE, payout, {
      cause: 'canceled',
      to: 'CANCELED',
      actor: input.actor,
    });
    return presentPayout(deps, payout, transaction);
  });
}
