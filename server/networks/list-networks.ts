import type { NetworkInfo } from '../../contract';
import type { Deps } from '../deps';

/** The networks that are on, as GET /networks shows them: what a payer's wallet or an integrator needs. */
export function listNetworks(deps: Pick<Deps, 'chains'>): NetworkInfo[] {
  return deps.chains.all().map((chain) => ({
    network: chain.network,
    name: chain.presentation.name,
    kind: chain.presentation.kind,
    chainId: chain.presentation.chainId,
    walletChain: chain.presentation.walletChain,
    confirmations: 'confirmations' in chain.finality ? chain.finality.confirmations : null,
    commitment: 'commitment' in chain.finality ? chain.finality.commitment : null,
    explorer: chain.presentation.explorer,
    tokens: chain.tokens().map((t) => ({ symbol: t.token, contract: t.contract, decimals: t.decimals })),
  }));
}
