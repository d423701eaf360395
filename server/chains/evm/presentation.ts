import type { ChainPresentation } from '../chain-adapter';

/** EVM explorers by chain id: the mainnets and the testnets the README mentions. */
const EXPLORERS: Record<number, { name: string; txUrl: string }> = {
  1: { name: 'Etherscan', txUrl: 'https://etherscan.io/tx/{tx}' },
  11155111: { name: 'Etherscan (Sepolia)', txUrl: 'https://sepolia.etherscan.io/tx/{tx}' },
  17000: { name: 'Etherscan (Holesky)', txUrl: 'https://holesky.etherscan.io/tx/{tx}' },
  137: { name: 'PolygonScan', txUrl: 'https://polygonscan.com/tx/{tx}' },
  80002: { name: 'PolygonScan (Amoy)', txUrl: 'https://amoy.polygonscan.com/tx/{tx}' },
};

/** An EVM network as payers see it: its name, and the chain id when it is not the mainnet's. */
export function evmPresentation(opts: {
  name: string;
  chainId: number;
  mainnetChainId: number;
}): ChainPresentation {
  return {
    name: opts.chainId === opts.mainnetChainId ? opts.name : `${opts.name} (chain id ${opts.chainId})`,
    walletProtocol: 'eip-1193',
    tokenKind: 'contract',
    chainId: opts.chainId,
    walletChain: null,
    explorer: EXPLORERS[opts.chainId] ?? null,
  };
}
