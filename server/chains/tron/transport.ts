import type { RpcEndpointPool } from '../rpc-endpoints';

/**
 * How TRON's providers say they are throttling: 403 or 429, or HTTP 200 with
 * `{"Error": "…lack of computing resources"}` (java-tron's rate limiter and TronGrid).
 */
export const isThrottledBody = (text: string): boolean =>
  /"Error"\s*:\s*"[^"]*lack of computing resources/i.test(text);

const isThrottled = async (res: Response) =>
  res.status === 429 || res.status === 403 || (res.ok && isThrottledBody(await res.clone().text()));

/** Retries after every endpoint was throttled: about 0.25, 0.5, 1 and 2 s, each with jitter. */
export const THROTTLE_RETRIES = 4;
const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 2000;

export type TronFetchOptions = {
  /** Sent as `TRON-PRO-API-KEY` (TronGrid's key) on every request; never logged. */
  apiKey: string | null;
  /** Tests make it instant. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
};

/**
 * The pool's fetch with TRON's manners: the API key header, and when every endpoint throttled the
 * request (the pool has already failed over between them), a jittered backoff and another try,
 * a bounded number of times. Throttling passes; it never turns the network off while an endpoint
 * answers, and what finally fails is the caller's ChainUnavailableError, retried next cycle.
 */
export function tronFetch(pool: RpcEndpointPool, opts: TronFetchOptions): typeof fetch {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = opts.random ?? Math.random;
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (opts.apiKey) headers.set('TRON-PRO-API-KEY', opts.apiKey);
    for (let retry = 0; ; retry++) {
      const res = await pool.fetch(input, { ...init, headers });
      if (retry >= THROTTLE_RETRIES || !(await isThrottled(res))) return res;
      const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** retry);
      await sleep(cap / 2 + random() * (cap / 2));
    }
  };
}
