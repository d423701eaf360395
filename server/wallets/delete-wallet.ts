import { Op } from 'sequelize';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { payableNow, payableWhere } from '../orders/payable';

/** Soft delete: past orders keep their wallet. Refused while an order that can still be paid pays into it. */
export async function deleteWallet(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  merchantId: string,
  walletId: string,
) {
  const { Wallet, Order } = deps.db.models;
  await deps.db.sequelize.transaction(async (transaction) => {
    const wallet = await Wallet.findOne({
      where: { id: walletId, merchantId, deletedAt: null },
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!wallet) throw ApiError.notFound('Wallet');
    // Its own orders, and those with another payment option into it (server/orders/payment-options.ts).
    const open = await Order.count({
      where: {
        ...payableWhere(payableNow(deps)),
        [Op.or]: [{ walletId }, { paymentOptions: { [Op.contains]: [{ walletId }] } }],
      } as never,
      transaction,
    });
    if (open > 0)
      throw ApiError.conflict(
        `Wallet is used by ${open} order(s) that can still be paid; wait until they are paid, or expired and past the late-payment window`,
      );
    wallet.deletedAt = deps.clock();
    await wallet.save({ transaction });
  });
}
