import { Op, type Transaction } from 'sequelize';
import type { Network } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

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

/** The paying wallet on one network; a 409 when the account has none there yet. */
export async function payingWalletOn(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  network: Network,
): Promise<string> {
  const wallet = (await payingWallets(deps, merchantId, [network])).get(network);
  if (!wallet) throw ApiError.conflict(`The account has no wallet on ${network} to pay from: add one first`);
  return wallet;
}
