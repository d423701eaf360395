/**
 * A network's list of RPC endpoints (`*_RPC_URL`, comma-separated) behind one `fetch`: calls go to
 * the healthiest endpoint and fail over to the next on connection errors, timeouts, 429, 5xx, 401 and 403;
 * an endpoint that failed is skipped for `retryFailedAfterMs`, then tried again.
 * Solana's Connection and viem's http transport both take this `fetch`.
 */
export type EndpointHealth = {
  network: string;
  /** `#<position> <origin>`: never the path or query, which often carry an API key. */
  endpoint: string;
  up: boolean;
  /** Failed attempts since the pool was created (all reasons). */
  failures: number;
  /** The same failures by reason: monotonic, so a Prometheus counter can mirror them. */
  failuresByReason: Record<RpcFailureReason, number>;
  /** Short and free of URLs, e.g. `HTTP 503`, `ECONNREFUSED`, `timed out after 10000 ms`. */
  lastError: string | null;
};

/** Why an attempt counts against an endpoint (and the request moves on to the next one). */
export type RpcFailureReason = 'timeout' | 'connection' | 'http_429' | 'http_5xx' | 'http_auth';
export const RPC_FAILURE_REASONS: readonly RpcFailureReason[] = [
  'timeout',
  'connection',
  'http_429',
  'http_5xx',
  'http_auth',
];

export type RpcEndpointPool = {
  readonly network: string;
  readonly urls: readonly string[];
  /**
   * Ignores the URL it is given: sends the request to the pool's endpoints in turn. A path (a
   * string starting with `/`, e.g. TRON's `/wallet/getnowblock`) is appended to each endpoint's URL.
   */
  fetch: typeof fetch;
  /**
   * Waits for `calls` slots of the network's budget: for calls that do not go through `fetch`
   * (websocket subscriptions), so the provider sees the same limit. Immediate when unlimited.
   */
  pace(calls?: number): Promise<void>;
  health(): EndpointHealth[];
};

export type RpcEndpointPoolOptions = {
  network: string;
  urls: readonly string[];
  /** Per attempt (one endpoint), headers and body included. */
  timeoutMs: number;
  retryFailedAfterMs: number;
  /** Milliseconds since the epoch; tests drive it. */
  now?: () => number;
  /** Told of every attempt's outcome, by endpoint label (`#1 https://host`); must not throw. */
  onResult?: (endpoint: string, outcome: 'ok' | RpcFailureReason) => void;
  /**
   * Most JSON-RPC calls a second the network's endpoints are sent (`<NETWORK>_RPC_MAX_RPS`), each
   * attempt and each entry of a batch counting; calls beyond it wait their turn, first come first
   * served, and are never dropped. Absent or null: unlimited.
   */
  maxRps?: number | null;
  /** Waits `ms` (tests drive it with `now`); default: a timer, cut short by `signal`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Whether a 2xx body says the provider is throttling (TRON's HTTP API answers 200 with
   * `{"Error": "…lack of computing resources"}`): such an answer counts as a 429.
   */
  throttledBody?: (text: string) => boolean;
};

/**
 * A token bucket of one token, refilled at `ratePerSecond`: each call takes the next free slot,
 * 1/rate after the one before (n slots for a batch of n), and waits until it comes. Slots are
 * handed out in call order, so waiting is first come first served and nobody starves; nothing is
 * dropped. In any window of T seconds at most rate·T + 1 calls start.
 */
export type RateBudget = {
  /** Resolves when the caller may send `calls` calls; rejects only when `signal` aborts first. */
  take(calls?: number, signal?: AbortSignal): Promise<void>;
};

export function createRateBudget(opts: {
  ratePerSecond: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}): RateBudget {
  if (!(opts.ratePerSecond > 0)) throw new Error('ratePerSecond must be above 0');
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? abortableSleep;
  const interval = 1000 / opts.ratePerSecond;
  /** When the next slot is free (milliseconds since the epoch). */
  let nextFree = -Infinity;
  return {
    async take(calls = 1, signal) {
      signal?.throwIfAborted();
      const t = now();
      const start = Math.max(t, nextFree);
      nextFree = start + interval * Math.max(1, calls);
      if (start > t) await sleep(start - t, signal);
    },
  };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** JSON-RPC calls in a request body: the entries of a batch, else one. */
function callsIn(body: RequestInit['body']): number {
  const text =
    typeof body === 'string' ? body : body instanceof Uint8Array ? Buffer.from(body).toString('utf8') : null;
  if (text === null || !text.trimStart().startsWith('[')) return 1;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
  } catch {
    return 1;
  }
}

type Endpoint = {
  /** The URL requests go to: without user info, which fetch refuses (it becomes `authorization`). */
  url: string;
  authorization: string | null;
  label: string;
  /** When the last attempt failed; null while the last attempt succeeded (or none was made). */
  failedAt: number | null;
  failuresByReason: Record<RpcFailureReason, number>;
  lastError: string | null;
};

type Attempt =
  | { ok: true; response: Response }
  | { ok: false; reason: RpcFailureReason; message: string; response: Response }
  | { ok: false; reason: RpcFailureReason; message: string; error: unknown };

/** Statuses whose Response must have a null body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export function createRpcEndpointPool(opts: RpcEndpointPoolOptions): RpcEndpointPool {
  if (opts.urls.length === 0) throw new Error(`${opts.network}: no RPC endpoint configured`);
  const now = opts.now ?? Date.now;
  const budget =
    opts.maxRps != null ? createRateBudget({ ratePerSecond: opts.maxRps, now, sleep: opts.sleep }) : null;
  const endpoints: Endpoint[] = opts.urls.map((raw, i) => {
    const url = new URL(raw);
    const authorization =
      url.username || url.password
        ? 'Basic ' +
          Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString(
            'base64',
          )
        : null;
    url.username = '';
    url.password = '';
    return {
      url: url.href,
      authorization,
      label: `#${i + 1} ${url.origin}`,
      failedAt: null,
      failuresByReason: { timeout: 0, connection: 0, http_429: 0, http_5xx: 0, http_auth: 0 },
      lastError: null,
    };
  });

  function report(endpoint: Endpoint, outcome: 'ok' | RpcFailureReason) {
    try {
      opts.onResult?.(endpoint.label, outcome);
    } catch {
      // A listener's bug must not turn into an RPC failure.
    }
  }

  /**
   * The endpoints not cooling down, in list order. When every one is cooling down, only the one
   * that failed longest ago: a network that is down answers within one attempt's timeout, not
   * one per endpoint, and is still probed so it is seen coming back.
   */
  function candidates(): Endpoint[] {
    const t = now();
    const ready = endpoints.filter((e) => e.failedAt === null || t - e.failedAt >= opts.retryFailedAfterMs);
    if (ready.length > 0) return ready;
    return [endpoints.reduce((a, b) => (b.failedAt! < a.failedAt! ? b : a))];
  }

  async function attempt(endpoint: Endpoint, request: PreparedRequest): Promise<Attempt> {
    // The wait for the budget is not part of the attempt's timeout.
    await budget?.take(request.calls, request.callerSignal);
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = request.callerSignal ? AbortSignal.any([request.callerSignal, timeout]) : timeout;
    let headers = request.headers;
    if (endpoint.authorization) {
      headers = new Headers(headers);
      if (!headers.has('authorization')) headers.set('authorization', endpoint.authorization);
    }
    try {
      const url = request.path ? endpoint.url.replace(/\/+$/, '') + request.path : endpoint.url;
      const res = await fetch(url, { ...request.init, headers, body: request.body, signal });
      // Read the body within this attempt's timeout, so a reply that stalls after its headers
      // (or breaks off) fails over too, and what the caller gets can no longer fail.
      const response = await buffered(res);
      if (res.status === 429) return { ok: false, reason: 'http_429', message: 'HTTP 429', response };
      if (res.ok && opts.throttledBody?.(await response.clone().text()))
        return { ok: false, reason: 'http_429', message: 'throttled (HTTP 200)', response };
      if (res.status >= 500)
        return { ok: false, reason: 'http_5xx', message: `HTTP ${res.status}`, response };
      // A refused or expired API key on one provider says nothing of the next one.
      if (res.status === 401 || res.status === 403)
        return { ok: false, reason: 'http_auth', message: `HTTP ${res.status}`, response };
      return { ok: true, response };
    } catch (error) {
      // The caller gave up: stop here, and it says nothing about this endpoint.
      if (request.callerSignal?.aborted) throw request.callerSignal.reason;
      if (timeout.aborted)
        return { ok: false, reason: 'timeout', message: `timed out after ${opts.timeoutMs} ms`, error };
      return { ok: false, reason: 'connection', message: describeError(error), error };
    }
  }

  const poolFetch: typeof fetch = async (input, init) => {
    const request = await prepare(input, init);
    request.callerSignal?.throwIfAborted();
    let lastResponse: Response | undefined;
    let lastError: unknown;
    for (const endpoint of candidates()) {
      const result = await attempt(endpoint, request);
      if (result.ok) {
        endpoint.failedAt = null;
        report(endpoint, 'ok');
        return result.response;
      }
      endpoint.failedAt = now();
      endpoint.failuresByReason[result.reason] += 1;
      endpoint.lastError = result.message;
      report(endpoint, result.reason);
      if ('response' in result) lastResponse = result.response;
      else lastError = result.error;
    }
    // Every endpoint failed: the caller's own error handling sees the last HTTP error, else the
    // last network error, as if it had talked to a single endpoint.
    if (lastResponse) return lastResponse;
    throw lastError;
  };

  return {
    network: opts.network,
    urls: opts.urls,
    fetch: poolFetch,
    pace: async (calls = 1) => budget?.take(calls),
    health: () =>
      endpoints.map((e) => ({
        network: opts.network,
        endpoint: e.label,
        up: e.failedAt === null,
        failures: RPC_FAILURE_REASONS.reduce((sum, r) => sum + e.failuresByReason[r], 0),
        failuresByReason: { ...e.failuresByReason },
        lastError: e.lastError,
      })),
  };
}

type PreparedRequest = {
  /** The caller's init without what each attempt sets itself (and web3.js's node-fetch `agent`). */
  init: RequestInit;
  headers: RequestInit['headers'];
  /** Re-sendable: a stream is read into bytes once. */
  body: RequestInit['body'];
  callerSignal: AbortSignal | undefined;
  /** JSON-RPC calls it carries (a batch: several), for the budget. */
  calls: number;
  /** A path to append to each endpoint's URL; null: the endpoint's URL as it is. */
  path: string | null;
};

async function prepare(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<PreparedRequest> {
  const rest: RequestInit & { agent?: unknown } = { ...init };
  delete rest.agent;
  delete rest.signal;
  delete rest.headers;
  delete rest.body;
  let headers = init?.headers;
  let body = init?.body;
  let callerSignal = init?.signal ?? undefined;
  if (input instanceof Request) {
    rest.method ??= input.method;
    headers ??= input.headers;
    callerSignal ??= input.signal;
    if (body === undefined && input.body) body = new Uint8Array(await input.arrayBuffer());
  }
  if (body instanceof ReadableStream) body = new Uint8Array(await new Response(body).arrayBuffer());
  const path = typeof input === 'string' && input.startsWith('/') ? input : null;
  return { init: rest, headers, body, callerSignal, calls: callsIn(body), path };
}

/** The same response with its body already read (decoded, hence no encoding or length headers). */
async function buffered(res: Response): Promise<Response> {
  const body = await res.arrayBuffer();
  const headers = new Headers(res.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Response(NULL_BODY_STATUSES.has(res.status) ? null : body, {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
}

/** A short reason without URLs (they may carry API keys): an errno code when there is one. */
function describeError(error: unknown): string {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
  }
  let e: unknown = error;
  // fetch's own message ("fetch failed") says less than its cause's.
  if (e instanceof TypeError && e.message === 'fetch failed' && e.cause instanceof Error) e = e.cause;
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/\w+:\/\/\S+/g, '<url>').slice(0, 120);
}
