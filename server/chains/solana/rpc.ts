import { Connection, type Commitment } from '@solana/web3.js';
import { rpcCall } from '../chain-errors';
import type { RpcEndpointPool } from '../rpc-endpoints';

/**
 * A Connection whose requests go through the network's endpoint pool (failover, and a timeout per
 * attempt); its own URL is only nominal. Creating it contacts nothing.
 */
export function createSolanaConnection(pool: RpcEndpointPool, commitment: Commitment): Connection {
  return new Connection(pool.urls[0]!, {
    commitment,
    fetch: pool.fetch,
    // web3.js would otherwise sleep and retry on 429 for far longer than a request can wait.
    disableRetryOnRateLimit: true,
    // Its keep-alive agent is for node-fetch, bound to the first URL's scheme; global fetch pools its own.
    httpAgent: false,
  });
}

/** Runs one Solana RPC call; a failure becomes ChainUnavailableError. */
export const solanaRpc = <T>(method: string, call: () => Promise<T>) => rpcCall('Solana', method, call);

/** Micro-lamports per compute unit: the median of the non-zero recent fees, 0 when there are none. */
export function medianNonZeroFee(fees: readonly { prioritizationFee: number }[]): number {
  const nonZero = fees
    .map((f) => f.prioritizationFee)
    .filter((fee) => Number.isFinite(fee) && fee > 0)
    .sort((a, b) => a - b);
  if (nonZero.length === 0) return 0;
  const mid = Math.floor(nonZero.length / 2);
  const median = nonZero.length % 2 === 1 ? nonZero[mid]! : (nonZero[mid - 1]! + nonZero[mid]!) / 2;
  return Math.ceil(median);
}
