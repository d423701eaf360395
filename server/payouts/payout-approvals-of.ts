import { QueryTypes, type Transaction } from 'sequelize';
import type { Deps } from '../deps';

/**
 * How many members approve a payout of this account: 1, or 2 (its creator and another member).
 * Read from `merchants.payout_approvals` (migration 0034), which `PATCH /account` sets.
 */
export async function payoutApprovalsOf(
  deps: Pick<Deps, 'db'>,
  account: { id: string },
  transaction?: Transaction,
): Promise<1 | 2> {
  const [row] = await deps.db.sequelize.query<{ payout_approvals: number }>(
    'SELECT payout_approvals FROM merchants WHERE id = :id',
    { type: QueryTypes.SELECT, replacements: { id: account.id }, transaction },
  );
  return row?.payout_approvals === 2 ? 2 : 1;
}
