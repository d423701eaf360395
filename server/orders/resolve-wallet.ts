import type { Network } from '../../contract';
import type { WalletRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/**
 * The wallet named by the request, else the merchant's first wallet on the network. Read from the
 * cache; a wallet missing there is looked for in the database before the request is refused, and
 * one found there is checked again by the statement that writes the order (it may be gone since).
 */
export async function resolveWallet(
  deps: Pick<Deps, 'cache'>,
  merchantId: string,
  network: Network,
  walletId: string | undefined,
  opts: { fresh?: boolean; field?: string } = {},
): Promise<WalletRow> {
  const pick = (wallets: WalletRow[] | null) =>
    wallets?.find((w) => (walletId ? w.id === walletId : w.network === network));
  let wallet = pick(await deps.cache.wallets.get(merchantId, opts));
  if (!wallet && !opts.fresh) wallet = pick(await deps.cache.wallets.get(merchantId, { fresh: true }));
  if (walletId) {
    if (!wallet) throw ApiError.notFound('Wallet');
    if (wallet.network !== network)
      throw ApiError.field('body.merchantWalletId', `is a ${wallet.network} wallet, not ${network}`);
    return wallet;
  }
  if (!wallet)
    throw ApiError.field(
      opts.field ?? 'body.network',
      `no ${network} receiving wallet: add one with POST /users/me/wallets`,
    );
  return wallet;
}
