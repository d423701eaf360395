import { setTimeout as sleep } from 'node:timers/promises';
import { CLIENT_ATTEMPTS, CLIENT_BACKOFF_MS, REQUEST_TIMEOUT_MS } from './settings';

type ClientStats = {
  calls: number;
  attempts: number;
  retriedCalls: number;
  retryReasons: Map<string, number>;
  failedBeyondRetries: { call: string; reason: string }[];
  unexpected: { call: string; reason: string }[];
};

type CallOptions = { token?: string; body?: unknown; expect?: number; idempotencyKey?: string };

/** An attempt's outcome: an answer (null after an unexpected one), or a reason to try again. */
type Outcome<T> = { answer: T | null; unexpected?: string } | { retry: string; retryAfterMs?: number };

/**
 * The client: through the balancer, retrying what a careful client retries. Connection errors,
 * timeouts, 502, 503 and 504 are retried with backoff (so is a 429, after its Retry-After, and a
 * 409 saying the same Idempotency-Key is still in progress): POST /orders sends the same
 * Idempotency-Key every time, submit-tx the same txId. What still fails after CLIENT_ATTEMPTS is
 * counted, as is any other unexpected answer.
 */
export function createClient(baseUrl: string) {
  const stats: ClientStats = {
    calls: 0,
    attempts: 0,
    retriedCalls: 0,
    retryReasons: new Map(),
    failedBeyondRetries: [],
    unexpected: [],
  };

  async function call<T>(method: string, urlPath: string, opts: CallOptions = {}): Promise<T | null> {
    const name = `${method} ${urlPath.replace(/\/[1-9A-HJ-NP-Za-km-z]{32,44}(?=\/|$)/, '/{reference}')}`;
    const init = requestInit(method, opts);
    stats.calls++;
    let lastReason = '';
    for (let attempt = 1; attempt <= CLIENT_ATTEMPTS; attempt++) {
      if (attempt === 2) stats.retriedCalls++;
      stats.attempts++;
      const outcome = await attemptOnce<T>(`${baseUrl}${urlPath}`, init, opts.expect ?? 200);
      if ('answer' in outcome) {
        if (outcome.unexpected !== undefined)
          stats.unexpected.push({ call: name, reason: outcome.unexpected });
        return outcome.answer;
      }
      lastReason = outcome.retry;
      stats.retryReasons.set(lastReason, (stats.retryReasons.get(lastReason) ?? 0) + 1);
      const waitMs = outcome.retryAfterMs ?? CLIENT_BACKOFF_MS * 2 ** (attempt - 1);
      if (attempt < CLIENT_ATTEMPTS) await sleep(waitMs * (0.75 + Math.random() / 2));
    }
    stats.failedBeyondRetries.push({ call: name, reason: lastReason });
    return null;
  }

  return { call, stats };
}

export type Client = ReturnType<typeof createClient>;

function requestInit(method: string, opts: CallOptions): RequestInit {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  return { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) };
}

async function attemptOnce<T>(url: string, init: RequestInit, expected: number): Promise<Outcome<T>> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await res.text();
    if (res.status === expected) {
      try {
        return { answer: (text ? JSON.parse(text) : null) as T };
      } catch {
        return { answer: null, unexpected: `${res.status} without JSON: ${text.slice(0, 200)}` };
      }
    }
    const inProgress = res.status === 409 && /in progress/i.test(text);
    if (![429, 502, 503, 504].includes(res.status) && !inProgress)
      return { answer: null, unexpected: `${res.status}: ${text.slice(0, 200)}` };
    const retryAfter = Number(res.headers.get('retry-after'));
    return {
      retry: inProgress ? '409 key in progress' : String(res.status),
      retryAfterMs:
        Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 5_000) : undefined,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return {
      retry:
        (error as Error).name === 'TimeoutError'
          ? 'timeout'
          : (cause?.code ?? (error as Error).message ?? 'network error'),
    };
  }
}
