import type { Network } from '../../contract';
import type { Config } from '../config';
import type { ChainAdapter } from './chain-adapter';
import { createEvmAdapter } from './evm/evm-adapter';
import { evmPresentation } from './evm/presentation';
import { createRpcEndpointPool, type EndpointHealth, type RpcEndpointPool } from './rpc-endpoints';
import { createSolanaAdapter } from './solana/solana-adapter';

export type ChainRegistry = {
  get(network: Network): ChainAdapter;
  all(): ChainAdapter[];
  /** Every RPC endpoint of every network, for /metrics. */
  endpointHealth(): EndpointHealth[];
};

/**
 * One adapter per network, built from configuration; building contacts no network. A further EVM
 * network is one more `evm(...)` entry here (and its value in the contract's network enum).
 */
export function createChainRegistry(config: Config): ChainRegistry {
  const pools: RpcEndpointPool[] = [];
  const pool = (network: Network, urls: string[]) => {
    const created = createRpcEndpointPool({
      network,
      urls,
      timeoutMs: config.RPC_TIMEOUT_MS,
      retryFailedAfterMs: config.RPC_RETRY_FAILED_AFTER_MS,
    });
    pools.push(created);
    return created;
  };
  const evm = (
    network: Network,
    o: {
      name: string;
      mainnetChainId: number;
      chainId: number;
      usdt: string;
      rpc: string[];
      confirmations: number;
    },
  ) =>
    createEvmAdapter({
      network,
      presentation: evmPresentation(o),
      chainId: o.chainId,
      usdtContract: o.usdt,
      rpc: pool(network, o.rpc),
      rpcTimeoutMs: config.RPC_TIMEOUT_MS,
      confirmations: o.confirmations,
      logRange: config.EVM_LOG_RANGE,
    });

  const adapters: Record<Network, ChainAdapter> = {
    SOLANA: createSolanaAdapter({
      rpc: pool('SOLANA', config.SOLANA_RPC_URL),
      commitment: config.SOLANA_COMMITMENT,
      usdtMint: config.USDT_MINT_SOLANA,
      usdcMint: config.USDC_MINT_SOLANA,
    }),
    POLYGON: evm('POLYGON', {
      name: 'Polygon PoS',
      mainnetChainId: 137,
      chainId: config.POLYGON_CHAIN_ID,
      usdt: config.USDT_CONTRACT_POLYGON,
      rpc: config.POLYGON_RPC_URL,
      confirmations: config.POLYGON_CONFIRMATIONS,
    }),
    ETHEREUM: evm('ETHEREUM', {
      name: 'Ethereum',
      mainnetChainId: 1,
      chainId: config.ETHEREUM_CHAIN_ID,
      usdt: config.USDT_CONTRACT_ETHEREUM,
      rpc: config.ETHEREUM_RPC_URL,
      confirmations: config.ETHEREUM_CONFIRMATIONS,
    }),
  };
  const all = Object.values(adapters);
  return {
    get: (network) => adapters[network],
    all: () => all,
    endpointHealth: () => pools.flatMap((p) => p.health()),
  };
}
