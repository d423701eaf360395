import { Connection, type Commitment } from '@solana/web3.js';
import { ApiError } from '../../errors';

export type SolanaRpcOptions = { rpcUrl: string; commitment: Commitment; rpcTimeoutMs: number };

/** A Connection whose every request gives up after `rpcTimeoutMs`; creating it contacts nothing. */
export function createSolanaConnection(opts: SolanaRpcOptions): Connection {
  const fetchWithTimeout: typeof fetch = (input, init) => {
    const timeout = AbortSignal.timeout(opts.rpcTimeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, { ...init, signal });
  };
  return new Connection(opts.rpcUrl, {
    commitment: opts.commitment,
    fetch: fetchWithTimeout,
    // web3.js would otherwise sleep and retry on 429 for far longer than a request can wait.
    disableRetryOnRateLimit: true,
  });
}

/** Runs one RPC call; any failure (refused, timeout, HTTP error, bad JSON) becomes UPSTREAM_UNAVAILABLE. */
export async function solanaRpc<T>(method: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw ApiError.upstream(`Solana RPC unavailable: ${method} failed (${describeRpcError(error)})`);
  }
}

function describeRpcError(error: unknown): string {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === 'TimeoutError') return 'timed out';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  const message = error instanceof Error ? error.message : String(error);
  // The RPC URL often embeds an API key: never echo one back to a client.
  return message.replace(/\w+:\/\/\S+/g, '<url>').slice(0, 200);
}

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
