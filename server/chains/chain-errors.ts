/**
 * Errors chain code throws. They say what went wrong on the chain side only; the HTTP edge
 * (server/http/error-handler.ts) maps them to the one error body.
 */

/** The network's RPC endpoints could not be reached or answered with an error: try again later. */
export class ChainUnavailableError extends Error {
  override name = 'ChainUnavailableError';
}

/** The payer account given for a transaction request cannot pay (bad form, no token account, short balance). */
export class PayerAccountError extends Error {
  override name = 'PayerAccountError';
}

/** A short, secret-free account of why an RPC call failed (RPC URLs often embed an API key). */
export function describeRpcError(error: unknown): string {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === 'TimeoutError') return 'timed out';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  const message =
    error instanceof Error
      ? ((error as { shortMessage?: string }).shortMessage ?? error.message)
      : String(error);
  return message.replace(/\w+:\/\/\S+/g, '<url>').slice(0, 200);
}

/** Runs one RPC call; any failure (refused, timeout, HTTP or JSON-RPC error, bad JSON) becomes ChainUnavailableError. */
export async function rpcCall<T>(network: string, method: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ChainUnavailableError(
      `${network} RPC unavailable: ${method} failed (${describeRpcError(error)})`,
    );
  }
}

/** A network that is off on this server (its settings are not given). */
export class NetworkOffError extends Error {
  override name = 'NetworkOffError';
  constructor(readonly network: string) {
    super(
      `${network} is not enabled on this server${network === 'SOLANA' ? '' : ` (its operator sets ${network}_RPC_URL to turn it on)`}`,
    );
  }
}
