import type { ChainPresentation } from '../chain-adapter';

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

/** Solana as payers see it; a testnet deployment links to the testnet explorer. */
export function solanaPresentation(rpcUrls: readonly string[]): ChainPresentation {
  const cluster = solanaCluster(rpcUrls);
  // Solana Explorer's "custom" cluster reads a validator on the viewer's own machine.
  const query = cluster === 'mainnet' ? '' : `?cluster=${cluster === 'localnet' ? 'custom' : cluster}`;
  return {
    name: cluster === 'mainnet' ? 'Solana' : `Solana (${cluster})`,
    kind: 'solana',
    walletProtocol: 'wallet-standard',
    tokenKind: 'mint',
    chainId: null,
    walletChain: `solana:${cluster}`,
    explorer: { name: 'Solana Explorer', txUrl: `https://explorer.solana.com/tx/{tx}${query}` },
  };
}
