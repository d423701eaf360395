import { TRON_NETWORK_TABLE } from '../../../contract';
import type { ChainPresentation } from '../chain-adapter';

/** TRON as payers see it: its name (with the chain id off mainnet) and Tronscan where it knows the chain. */
export function tronPresentation(chainId: number): ChainPresentation {
  const { chainIds, explorers, name } = TRON_NETWORK_TABLE;
  const known = (Object.keys(chainIds) as (keyof typeof chainIds)[]).find((k) => chainIds[k] === chainId);
  return {
    name:
      known === 'mainnet'
        ? name
        : known
          ? `${name} (${known[0]!.toUpperCase()}${known.slice(1)})`
          : `${name} (chain id 0x${chainId.toString(16)})`,
    kind: 'tron',
    walletProtocol: 'tip-1193',
    tokenKind: 'contract',
    chainId,
    walletChain: `tron:0x${chainId.toString(16)}`,
    explorer: known ? { ...explorers[known] } : null,
  };
}
