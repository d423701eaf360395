import type { CreateOrderBody, Network, Token } from '../../contract';
import { chainFor } from '../chains/registry';
import type { WalletRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { resolveWallet } from './resolve-wallet';

/** A way to pay a new order, before its amount: the token and the wallet that receives it. */
export type ResolvedOption = {
  network: Network;
  token: Token;
  tokenMint: string;
  decimals: number;
  wallet: WalletRow;
};

/**
 * The new order's options (DESIGN "The payer's choice of network and token"): `network`/`token`
 * first (its wallet `merchantWalletId`, else the merchant's on the network), then `paymentOptions`
 * in the order given without repeats, each on a network that is on, a token that is on there, and a
 * wallet of the merchant's on that network (400 naming the option otherwise). `"all"`: every network
 * and token that is on and has a wallet of the merchant's. Without `paymentOptions`, only the first:
 * exactly what an order was before (no more reads).
 */
export async function resolvePaymentOptions(
  deps: Pick<Deps, 'chains' | 'cache'>,
  merchantId: string,
  body: Pick<CreateOrderBody, 'network' | 'token' | 'merchantWalletId' | 'paymentOptions'>,
  opts: { freshWallet?: boolean } = {},
): Promise<ResolvedOption[]> {
  const option = async (
    network: Network,
    token: Token,
    field: string,
    walletId?: string,
  ): Promise<ResolvedOption> => {
    const chain = chainFor(deps.chains, network, `${field}.network`);
    const tokenMint = chain.tokenMint(token);
    if (!tokenMint) throw ApiError.field(`${field}.token`, chain.tokenUnavailableReason(token));
    const wallet = await resolveWallet(deps, merchantId, network, walletId, {
      fresh: opts.freshWallet,
      field: `${field}.network`,
    });
    return { network, token, tokenMint, decimals: chain.tokenDecimals(token), wallet };
  };
  const first = await option(body.network, body.token, 'body', body.merchantWalletId);
  if (body.paymentOptions === undefined) return [first];
  const chosen = [first];
  const known = (network: Network, token: Token) =>
    chosen.some((o) => o.network === network && o.token === token);
  if (body.paymentOptions === 'all') {
    const wallets = (await deps.cache.wallets.get(merchantId, { fresh: opts.freshWallet })) ?? [];
    for (const chain of deps.chains.all()) {
      const wallet = wallets.find((w) => w.network === chain.network);
      if (!wallet) continue;
      for (const token of chain.tokens())
        if (!known(chain.network, token.token))
          chosen.push({
            network: chain.network,
            token: token.token,
            tokenMint: token.contract,
            decimals: token.decimals,
            wallet,
          });
    }
    return chosen;
  }
  for (const [i, wanted] of body.paymentOptions.entries())
    if (!known(wanted.network, wanted.token))
      chosen.push(await option(wanted.network, wanted.token, `body.paymentOptions.${i}`));
  return chosen;
}
