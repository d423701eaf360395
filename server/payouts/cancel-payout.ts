import type { Payout as PayoutBody } from '../../contract';
import type { Deps } from '../deps';
import { movePayout } from './move-payout';
import type { PayoutActor } from './payout-audit';

/** Cancels a DRAFT or APPROVED batch; once a transaction was reported (SENDING) or it settled, a 409. */
export function cancelPayout(
  deps: Deps,
  input: { merchantId: string; id: string; actor: NonNullable<PayoutActor> },
): Promise<PayoutBody> {
  return movePayout(deps, input, {
    from: ['DRAFT', 'APPROVED'],
    refusal: (status) => `The payout is ${status}: only a DRAFT or APPROVED one can be canceled`,
    cause: 'canceled',
    to: 'CANCELED',
    change: async (payout, now) => {
      payout.canceledAt = now;
      payout.nextCheckAt = null;
    },
  });
}
