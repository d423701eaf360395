import type { Deps } from '../deps';
import { presentWallet } from './present-wallet';
import { OLDEST_FIRST } from '../db/order-by';

export async function listWallets(deps: Pick<Deps, 'db'>, merchantId: string) {
  const wallets = await deps.db.models.Wallet.findAll({
    where: { merchantId, deletedAt: null },
    order: OLDEST_FIRST,
  });
  return { items: wallets.map(presentWallet) };
}
