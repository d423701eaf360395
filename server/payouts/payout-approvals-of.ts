import type { Transaction } from 'sequelize';
import type { Deps } from '../deps';

/**
 * How many members approve a payout of this account: 1, or 2 (its creator and another member).
 * Read from the row itself, in the caller's transaction, not from the merchant cache: a batch made
 * just after `PATCH /account` asked for two must ask for two on every instance.
 */
export async function payoutApprovalsOf(
  deps: Pick<Deps, 'db'>,
  account: { id: string },
  transaction?: Transaction,
): Promise<1 | 2> {
  const row = await deps.db.models.Merchant.findByPk(account.id, {
    attributes: ['payoutApprovals'],
    transaction,
  });
  return row?.payoutApprovals === 2 ? 2 : 1;
}
