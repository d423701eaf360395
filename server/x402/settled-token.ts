import { getAddress } from 'viem';
import type { Network } from '../../contract';
import type { Deps } from '../deps';
import { x402EvmNetworks } from './x402-networks';
import { isSolanaCaip2, x402SolanaNetwork } from './x402-solana';

/** A settlement's token as its order records it, and how its chain writes addresses and ids. */
export type SettledToken = {
  network: Network;
  symbol: string;
  contract: string;
  decimals: number;
  /** An address as the ledger keeps it (EVM: checksummed; Solana: base58 as is). */
  address(text: string): string;
  /** A transaction id as the ledger keeps it (EVM: lower-case hex; Solana: base58 as is). */
  txId(text: string): string;
};

/** The token `asset` of the x402 network `caip2`; null when x402 is no longer on for it. */
export function settledToken(
  deps: Pick<Deps, 'config' | 'chains'>,
  caip2: string,
  asset: string,
): SettledToken | null {
  if (isSolanaCaip2(caip2)) {
    const net = x402SolanaNetwork(deps);
    const token = net.caip2 === caip2 ? net.tokens.find((t) => t.mint === asset) : undefined;
    return token
      ? {
          network: net.network,
          symbol: token.symbol,
          contract: token.mint,
          decimals: token.decimals,
          address: (text) => text,
          txId: (text) => text,
        }
      : null;
  }
  const net = x402EvmNetworks(deps).find((n) => n.caip2 === caip2);
  const token = net?.tokens.find((t) => t.contract === getAddress(asset));
  return net && token
    ? {
        network: net.network,
        symbol: token.symbol,
        contract: token.contract,
        decimals: token.decimals,
        address: (text) => getAddress(text),
        txId: (text) => text.toLowerCase(),
      }
    : null;
}
