import type { EvmNetwork, Network } from '../../contract';
import type { Config } from '../config';
import { mainnetNetworkSettings, tronSettings, type EvmNetworkSettings } from '../config-networks';
import { ApiError } from '../errors';
import type { ChainAdapter } from './chain-adapter';
import { ChainUnavailableError, NetworkOffError } from './chain-errors';
import { createEvmAdapter } from './evm/evm-adapter';
import { evmPresentation } from './evm/presentation';
import { createRpcEndpointPool, type EndpointHealth, type RpcEndpointPool } from './rpc-endpoints';
import { createSolanaAdapter } from './solana/solana-adapter';
import { createTronAdapter } from './tron/tron-adapter';
import { isThrottledBody } from './tron/transport';

export type ChainRegistry = {
  /** The adapter of a network that is on; throws NetworkOffError for one that is off. */
  get(network: Network): ChainAdapter;
  /** The adapter of a network that is on, or null. */
  find(network: Network): ChainAdapter | null;
  /**
   * For background checks: the adapter of a network that is on; for one that is off, a
   * ChainUnavailableError, so the check is postponed as when its RPC is down (it resumes when the
   * operator turns the network back on).
   */
  forChecks(network: Network): ChainAdapter;
  /** The networks that are on. */
  all(): ChainAdapter[];
  /**
   * Any network's adapter for showing what exists (an order's payment link, its checkout page), on
   * or off: an order made while its network was on keeps its links. Never for calls to the chain.
   */
  display(network: Network): ChainAdapter;
  /** Every RPC endpoint of every network, for /metrics. */
  endpointHealth(): EndpointHealth[];
  /**
   * The JSON-RPC endpoints of a network that is on (null for one that is off): one pool per
   * network for whatever calls it (the adapter, x402), so its request budget, failover and
   * /metrics are the network's, not one of several clients'.
   */
  rpcPool(network: Network): RpcEndpointPool | null;
};

/**
 * One adapter per network that is on, built from configuration (server/config-networks.ts, from
 * contract/network-table.ts); building contacts no network. `onTokenRefused` hears of a token whose
 * contract reports other decimals than configured.
 */
export function createChainRegistry(
  config: Config,
  opts: {
    onTokenRefused?: (network: Network, message: string) => void;
    /** Hears of push connections (Solana's account notifications) opening and dropping. */
    log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  } = {},
): ChainRegistry {
  const pools: RpcEndpointPool[] = [];
  const rpcPools = new Map<Network, RpcEndpointPool>();
  const pool = (
    network: Network | 'TRON (HTTP API)',
    urls: string[],
    maxRps: number | null,
    throttledBody?: (text: string) => boolean,
  ) => {
    const created = createRpcEndpointPool({
      network,
      urls,
      timeoutMs: config.RPC_TIMEOUT_MS,
      retryFailedAfterMs: config.RPC_RETRY_FAILED_AFTER_MS,
      maxRps,
      throttledBody,
    });
    pools.push(created);
    if (network !== 'TRON (HTTP API)') rpcPools.set(network, created);
    return created;
  };
  const refused = (network: Network) => (message: string) => opts.onTokenRefused?.(network, message);

  const adapters = new Map<Network, ChainAdapter>();
  adapters.set(
    'SOLANA',
    createSolanaAdapter({
      rpc: pool('SOLANA', config.SOLANA_RPC_URL, config.solanaRpcMaxRps),
      commitment: config.SOLANA_COMMITMENT,
      tokens: config.solanaTokens,
      onTokenRefused: refused('SOLANA'),
      wsUrls: config.solanaWsUrls,
      log: opts.log,
    }),
  );
  const evmAdapter = (settings: EvmNetworkSettings, rpc: RpcEndpointPool) =>
    createEvmAdapter({
      network: settings.network,
      presentation: evmPresentation(settings),
      chainId: settings.chainId,
      tokens: settings.tokens,
      rpc,
      rpcTimeoutMs: config.RPC_TIMEOUT_MS,
      confirmations: settings.confirmations,
      logRange: config.EVM_LOG_RANGE,
      onTokenRefused: refused(settings.network),
    });
  for (const settings of config.evmNetworks)
    adapters.set(
      settings.network,
      evmAdapter(settings, pool(settings.network, settings.rpcUrls, settings.rpcMaxRps)),
    );
  const tronAdapter = (
    tron: NonNullable<Config['tron']>,
    pools: { rpc: RpcEndpointPool; api: RpcEndpointPool },
  ) =>
    createTronAdapter({
      chainId: tron.chainId,
      tokens: tron.tokens,
      ...pools,
      apiKey: tron.apiKey,
      rpcTimeoutMs: config.RPC_TIMEOUT_MS,
      confirmations: tron.confirmations,
      onTokenRefused: refused('TRON'),
    });
  if (config.tron)
    adapters.set(
      'TRON',
      tronAdapter(config.tron, {
        rpc: pool('TRON', config.tron.rpcUrls, config.tron.rpcMaxRps, isThrottledBody),
        api: pool('TRON (HTTP API)', config.tron.apiUrls, config.tron.rpcMaxRps, isThrottledBody),
      }),
    );
  // A sandbox's chains are its own (at mainnet chain ids): no public explorer has seen their
  // transactions, so neither the dashboard nor the checkout links to one.
  if (config.sandbox)
    for (const [network, adapter] of adapters)
      adapters.set(network, { ...adapter, presentation: { ...adapter.presentation, explorer: null } });
  const all = [...adapters.values()];

  const offAdapters = new Map<Network, ChainAdapter>();
  /** A network that is off, at its mainnet values, on an endpoint that is never called. */
  const offAdapter = (network: Network) => {
    const never = createRpcEndpointPool({
      network,
      urls: ['http://network-off.invalid'],
      timeoutMs: config.RPC_TIMEOUT_MS,
      retryFailedAfterMs: config.RPC_RETRY_FAILED_AFTER_MS,
    });
    if (network === 'TRON')
      return tronAdapter(tronSettings({ TRON_RPC_URL: [never.urls[0]] })!, { rpc: never, api: never });
    return evmAdapter(mainnetNetworkSettings(network as EvmNetwork), never);
  };

  return {
    display(network) {
      const on = adapters.get(network);
      if (on) return on;
      let off = offAdapters.get(network);
      if (!off) offAdapters.set(network, (off = offAdapter(network)));
      return off;
    },
    get(network) {
      const adapter = adapters.get(network);
      if (!adapter) throw new NetworkOffError(network);
      return adapter;
    },
    find: (network) => adapters.get(network) ?? null,
    forChecks(network) {
      const adapter = adapters.get(network);
      if (!adapter) throw new ChainUnavailableError(new NetworkOffError(network).message);
      return adapter;
    },
    all: () => all,
    endpointHealth: () => pools.flatMap((p) => p.health()),
    rpcPool: (network) => rpcPools.get(network) ?? null,
  };
}

/** The chain of a network that is on; for one that is off, a 400 naming it at the request's `field`. */
export function chainFor(chains: ChainRegistry, network: Network, field: string): ChainAdapter {
  const chain = chains.find(network);
  if (!chain) throw ApiError.field(field, new NetworkOffError(network).message);
  return chain;
}
