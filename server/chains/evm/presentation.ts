import { EVM_NETWORK_TABLE, type EvmNetwork } from '../../../contract';
import type { ChainPresentation } from '../chain-adapter';

/** Explorers of the testnets the README mentions (mainnet explorers are in contract/network-table.ts). */
const TESTNET_EXPLORERS: Record<number, { name: string; txUrl: string }> = {
  11155111: { name: 'Etherscan (Sepolia)', txUrl: 'https://sepolia.etherscan.io/tx/{tx}' },
  17000: { name: 'Etherscan (Holesky)', txUrl: 'https://holesky.etherscan.io/tx/{tx}' },
  80002: { name: 'PolygonScan (Amoy)', txUrl: 'https://amoy.polygonscan.com/tx/{tx}' },
  84532: { name: 'BaseScan (Sepolia)', txUrl: 'https://sepolia.basescan.org/tx/{tx}' },
  97: { name: 'BscScan (testnet)', txUrl: 'https://testnet.bscscan.com/tx/{tx}' },
};

/**
 * An EVM network as payers see it: its name (with the chain id when it is not the mainnet's) and
 * its explorer: the configured one, else the mainnet's on the mainnet chain id, else a known testnet's.
 */
export function evmPresentation(opts: {
  network: EvmNetwork;
  name: string;
  chainId: number;
  mainnetChainId: number;
  explorerTxUrl: string | null;
}): ChainPresentation {
  const mainnet = opts.chainId === opts.mainnetChainId;
  const explorer = opts.explorerTxUrl
    ? { name: new URL(opts.explorerTxUrl).hostname, txUrl: opts.explorerTxUrl }
    : mainnet
      ? { ...EVM_NETWORK_TABLE[opts.network].explorer }
      : (TESTNET_EXPLORERS[opts.chainId] ?? null);
  return {
    name: mainnet ? opts.name : `${opts.name} (chain id ${opts.chainId})`,
    kind: 'evm',
    walletProtocol: 'eip-1193',
    tokenKind: 'contract',
    chainId: opts.chainId,
    walletChain: null,
    explorer,
  };
}
