import { createPublicClient, http, type PublicClient } from 'viem';
import { rpcCall } from '../chain-errors';
import type { RpcEndpointPool } from '../rpc-endpoints';

/**
 * A viem client over the network's endpoint pool (which fails over between endpoints itself, so
 * viem does not retry). Creating it contacts nothing.
 */
export function createEvmClient(pool: RpcEndpointPool, timeoutMs: number): PublicClient {
  return createPublicClient({
    transport: http(pool.urls[0], {
      fetchFn: pool.fetch,
      retryCount: 0,
      // The pool gives each endpoint `timeoutMs`; viem must wait for the whole failover.
      timeout: timeoutMs * pool.urls.length + 1000,
    }),
  });
}

/** Runs one RPC call of an EVM network; a failure becomes ChainUnavailableError. */
export const evmRpc = <T>(network: string, method: string, call: () => Promise<T>) =>
  rpcCall(network, method, call);
