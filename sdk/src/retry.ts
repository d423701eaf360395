/**
 * When and how long to wait before trying a request again. Browser-safe (no Node imports).
 *
 * - Network failures (no answer) and 500/502/503/504 are retried only for requests that are safe to
 *   repeat ("idempotent": GETs, order creation with its idempotency key, submit-tx for one txId...).
 * - 429 is retried for every request: the server refused it before doing anything.
 * - Any other 4xx is never retried.
 */
export type RetryMode = 'idempotent' | 'unsafe';

export type RetryOptions = {
  /** Retries after the first attempt (default 2). */
  maxRetries: number;
  /** First backoff step in ms (default 300); doubles with each retry. */
  baseDelayMs: number;
  /** Longest backoff in ms (default 5000). */
  maxDelayMs: number;
  /** A Retry-After longer than this (seconds, default 60) is not waited for: the error is thrown. */
  maxRetryAfterSeconds: number;
};

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 2,
  baseDelayMs: 300,
  maxDelayMs: 5000,
  maxRetryAfterSeconds: 60,
};

const RETRIABLE_5XX = new Set([500, 502, 503, 504]);

/** Whether a failure may be retried at all (attempt budget aside). */
export function isRetriable(failure: { status?: number }, mode: RetryMode): boolean {
  if (failure.status === undefined) return mode === 'idempotent'; // no answer: the server may have acted
  if (failure.status === 429) return true;
  return mode === 'idempotent' && RETRIABLE_5XX.has(failure.status);
}

/**
 * Exponential backoff with "equal jitter" for retry number `retry` (0 for the first retry): between
 * half and all of min(maxDelay, base * 2^retry). A Retry-After (seconds) raises the wait to it;
 * undefined means "do not retry" (Retry-After beyond maxRetryAfterSeconds).
 */
export function retryDelayMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  opts: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterSeconds'> = DEFAULT_RETRY,
  random: () => number = Math.random,
): number | undefined {
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** retry);
  const backoff = ceiling / 2 + random() * (ceiling / 2);
  if (retryAfterSeconds === undefined) return Math.round(backoff);
  if (retryAfterSeconds > opts.maxRetryAfterSeconds) return undefined;
  return Math.round(Math.max(backoff, retryAfterSeconds * 1000));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
