import type { Network } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/** The wallet named by the request, else the merchant's first wallet on the network. */
export async function resolveWallet(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  network: Network,
  walletId: string | undefined,
) {
  const { Wallet } = deps.db.models;
  if (walletId) {
    const wallet = await Wallet.findOne({ where: { id: walletId, merchantId, deletedAt: null } });
    if (!wallet) throw ApiError.notFound('Wallet');
    if (wallet.network !== network)
      throw ApiError.field('body.merchantWalletId', `is a ${wallet.network} wallet, not ${network}`);
    return wallet;
  }
  const wallet = await Wallet.findOne({
    where: { merchantId, network, deletedAt: null },
    order: [
      ['createdAt', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  if (!wallet)
    throw ApiError.field(
      'body.network',
      `no ${network} receiving wallet: add one with POST /users/me/wallets`,
    );
  return wallet;
}
