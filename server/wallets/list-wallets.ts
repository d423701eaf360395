import type { Deps } from '../deps';
import { presentWallet } from './present-wallet';

export async function listWallets(deps: Pick<Deps, 'db'>, merchantId: string) {
  const wallets = await deps.db.models.Wallet.findAll({
    where: { merchantId, deletedAt: null },
    order: [
      ['createdAt', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  return { items: wallets.map(presentWallet) };
}
