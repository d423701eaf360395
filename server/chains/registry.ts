import type { Network } from '../../contract';
import type { Config } from '../config';
import type { ChainAdapter } from './chain-adapter';
import { createEvmAdapter } from './evm/evm-adapter';
import { createSolanaAdapter } from './solana/solana-adapter';

export type ChainRegistry = {
  get(network: Network): ChainAdapter;
  all(): ChainAdapter[];
};

/** One adapter per network, built from configuration. Building contacts no network. */
export function createChainRegistry(config: Config): ChainRegistry {
  const adapters: Record<Network, ChainAdapter> = {
    SOLANA: createSolanaAdapter({
      rpcUrl: config.SOLANA_RPC_URL,
      commitment: config.SOLANA_COMMITMENT,
      usdtMint: config.USDT_MINT_SOLANA,
      usdcMint: config.USDC_MINT_SOLANA,
      rpcTimeoutMs: config.RPC_TIMEOUT_MS,
    }),
    POLYGON: createEvmAdapter({
      network: 'POLYGON',
      chainId: config.POLYGON_CHAIN_ID,
      usdtContract: config.USDT_CONTRACT_POLYGON,
      rpcUrl: config.POLYGON_RPC_URL,
    }),
    ETHEREUM: createEvmAdapter({
      network: 'ETHEREUM',
      chainId: config.ETHEREUM_CHAIN_ID,
      usdtContract: config.USDT_CONTRACT_ETHEREUM,
      rpcUrl: config.ETHEREUM_RPC_URL,
    }),
  };
  return {
    get: (network) => adapters[network],
    all: () => Object.values(adapters),
  };
}
