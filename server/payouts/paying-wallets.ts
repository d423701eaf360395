import { Op, type Transaction } from 'sequelize';
import type { Network } from '../../contract';
import type { Deps } from '../deps';

/** The paying wallet of each network: the account's first wallet there (not removed). */
export async function payingWallets(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  networks: readonly Network[],
  transaction?: Transaction,
): Promise<Map<Network, string>> {
  const wallets = await deps.db.models.Wallet.findAll({
    where: { merchantId, network: { [Op.in]: [...networks] }, deletedAt: null },
    order: [
      ['createdAt', 'ASC'],
      ['id', 'ASC'],
    ],
    transaction,
  });
  const first = new Map<Network, string>();
  for (const w of wallets) if (!first.has(w.network)) first.set(w.network, w.publicAddress);
  return first;
}
