import type { Transaction } from 'sequelize';
import type { Payout as PayoutBody, PayoutStatus } from '../../contract';
import type { Payout } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { applyTransition } from '../events/lifecycle';
import { findPayout } from './find-payout';
import { recordPayoutAudit, type PayoutActor } from './payout-audit';
import { PAYOUT_LIFECYCLE, type PayoutCause } from './payout-lifecycle';
import { presentPayout } from './present-payout';

/**
 * A member's move of a batch (approve, cancel): the row locked, its status checked (else a 409
 * saying why), `change` sets what the move sets and says what the audit entry carries, then the
 * entry and the transition, all in one database transaction.
 */
export async function movePayout(
  deps: Deps,
  input: { merchantId: string; id: string; actor: NonNullable<PayoutActor> },
  move: {
    from: readonly PayoutStatus[];
    refusal: (status: PayoutStatus) => string;
    cause: PayoutCause & ('approved' | 'canceled');
    to: PayoutStatus;
    change: (payout: Payout, now: Date, transaction: Transaction) => Promise<Record<string, unknown> | void>;
  },
): Promise<PayoutBody> {
  return deps.db.sequelize.transaction(async (transaction) => {
    const payout = await findPayout(
      deps,
      { id: input.id, merchantId: input.merchantId },
      { transaction, lock: true },
    );
    if (!move.from.includes(payout.status)) throw ApiError.conflict(move.refusal(payout.status));
    const now = deps.clock();
    const data = (await move.change(payout, now, transaction)) ?? undefined;
    await recordPayoutAudit(
      deps,
      transaction,
      { payoutId: payout.id, type: `payout.${move.cause}`, actor: input.actor, ...(data ? { data } : {}) },
      now,
    );
    await applyTransition(deps, transaction, PAYOUT_LIFECYCLE, payout, {
      cause: move.cause,
      to: move.to,
      actor: input.actor,
    });
    return presentPayout(deps, payout, transaction);
  });
}
