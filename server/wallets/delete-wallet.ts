import { Op } from 'sequelize';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { OPEN_STATUSES } from '../orders/order-status';

/** Soft delete: past orders keep their wallet. Refused while an open order pays into it. */
export async function deleteWallet(deps: Pick<Deps, 'db' | 'clock'>, merchantId: string, walletId: string) {
  const { Wallet, Order } = deps.db.models;
  await deps.db.sequelize.transaction(async (transaction) => {
    const wallet = await Wallet.findOne({
      where: { id: walletId, merchantId, deletedAt: null },
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!wallet) throw ApiError.notFound('Wallet');
    const open = await Order.count({
      where: { walletId, status: { [Op.in]: [...OPEN_STATUSES] } },
      transaction,
    });
    if (open > 0)
      throw ApiError.conflict(`Wallet is used by ${open} open order(s); wait until they are paid or expired`);
    wallet.deletedAt = deps.clock();
    await wallet.save({ transaction });
  });
}
