/**
 * What the checkout page says about each network: its name in words, the explorer that shows a
 * transaction, and (Solana) the Wallet Standard chain a wallet signs for. Derived from the service's
 * configuration, so a testnet deployment links to the testnet explorer. Server side only; the
 * types are in page-config.ts, which the browser script shares.
 */
import type { Network } from '../../contract';
import type { Config } from '../config';
import type { Explorer, NetworkView } from './page-config';

const SOLANA_EXPLORER = 'Solana Explorer';

/** EVM explorers by chain id: the mainnets and the testnets the README mentions. */
const EVM_EXPLORERS: Record<number, Explorer> = {
  1: { name: 'Etherscan', txUrl: 'https://etherscan.io/tx/{tx}' },
  11155111: { name: 'Etherscan (Sepolia)', txUrl: 'https://sepolia.etherscan.io/tx/{tx}' },
  17000: { name: 'Etherscan (Holesky)', txUrl: 'https://holesky.etherscan.io/tx/{tx}' },
  137: { name: 'PolygonScan', txUrl: 'https://polygonscan.com/tx/{tx}' },
  80002: { name: 'PolygonScan (Amoy)', txUrl: 'https://amoy.polygonscan.com/tx/{tx}' },
};

type NetworkConfig = Pick<Config, 'SOLANA_RPC_URL' | 'POLYGON_CHAIN_ID' | 'ETHEREUM_CHAIN_ID'>;

/**
 * The Solana cluster, from the RPC endpoint the service reads: there is no setting of its own, and
 * providers name devnet/testnet in their URLs. A loopback endpoint is a local validator.
 */
export function solanaCluster(rpcUrls: readonly string[]): 'mainnet' | 'devnet' | 'testnet' | 'localnet' {
  const host = (() => {
    try {
      return new URL(rpcUrls[0] ?? '').hostname;
    } catch {
      return '';
    }
  })();
  if (/devnet/i.test(host)) return 'devnet';
  if (/testnet/i.test(host)) return 'testnet';
  if (/^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(host)) return 'localnet';
  return 'mainnet';
}

export function networkView(config: NetworkConfig, network: Network): NetworkView {
  if (network === 'SOLANA') {
    const cluster = solanaCluster(config.SOLANA_RPC_URL);
    // Solana Explorer's "custom" cluster reads a validator on the viewer's own machine.
    const query = cluster === 'mainnet' ? '' : `?cluster=${cluster === 'localnet' ? 'custom' : cluster}`;
    return {
      network,
      name: cluster === 'mainnet' ? 'Solana' : `Solana (${cluster})`,
      chainId: null,
      solanaChain: `solana:${cluster}`,
      explorer: { name: SOLANA_EXPLORER, txUrl: `https://explorer.solana.com/tx/{tx}${query}` },
    };
  }
  const chainId = network === 'POLYGON' ? config.POLYGON_CHAIN_ID : config.ETHEREUM_CHAIN_ID;
  const mainnet = network === 'POLYGON' ? chainId === 137 : chainId === 1;
  const base = network === 'POLYGON' ? 'Polygon PoS' : 'Ethereum';
  return {
    network,
    name: mainnet ? base : `${base} (chain id ${chainId})`,
    chainId,
    solanaChain: null,
    explorer: EVM_EXPLORERS[chainId] ?? null,
  };
}
