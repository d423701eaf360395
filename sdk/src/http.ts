import { errorFromResponse, parseRetryAfter, StablepayConnectionError, StablepayError } from './errors';
import { DEFAULT_RETRY, isRetriable, retryDelayMs, sleep, type RetryMode, type RetryOptions } from './retry';

/** The subset of `fetch` the SDK uses: pass your own (undici, a test double, a proxying fetch). */
export type FetchLike = (
  input: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<Response>;

export type HttpConfig = RetryOptions & {
  fetch: FetchLike;
  /** Per attempt, in ms (default 30 000); a timeout counts as a network failure. */
  timeoutMs: number;
};

export type HttpRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  retry: RetryMode;
};

export type HttpResponse = { status: number; body: unknown; headers: Headers };

export function httpConfig(opts: {
  fetch?: FetchLike;
  maxRetries?: number;
  timeoutMs?: number;
  retry?: Partial<Omit<RetryOptions, 'maxRetries'>>;
}): HttpConfig {
  // Browsers throw "Illegal invocation" when window.fetch is called as another object's method
  // (config.fetch(...) below): the global one is bound to globalThis.
  const fetchImpl =
    opts.fetch ??
    (typeof globalThis.fetch === 'function' ? (globalThis.fetch.bind(globalThis) as FetchLike) : undefined);
  if (typeof fetchImpl !== 'function')
    throw new TypeError('No fetch implementation: pass `fetch` in the options (Node 18+ has one built in)');
  const maxRetries = opts.maxRetries ?? DEFAULT_RETRY.maxRetries;
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw new TypeError('maxRetries must be a non-negative integer');
  return {
    ...DEFAULT_RETRY,
    ...opts.retry,
    maxRetries,
    fetch: fetchImpl,
    timeoutMs: opts.timeoutMs ?? 30_000,
  };
}

export function normalizeBaseUrl(baseUrl: string): string {
  if (typeof baseUrl !== 'string' || !/^https?:\/\//i.test(baseUrl))
    throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  return baseUrl.replace(/\/+$/, '');
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (/\bjson\b/i.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as { cause?: unknown }).cause;
    const detail = inner instanceof Error && inner.message ? ` (${inner.message})` : '';
    return `${cause.message}${detail}`;
  }
  return String(cause);
}

/** One attempt: the answer, or a StablepayConnectionError when none came. */
async function attempt(config: HttpConfig, req: HttpRequest): Promise<HttpResponse> {
  const signal = config.timeoutMs > 0 ? AbortSignal.timeout(config.timeoutMs) : undefined;
  try {
    const res = await config.fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal,
    });
    return { status: res.status, body: await readBody(res), headers: res.headers };
  } catch (cause) {
    const timedOut = signal?.aborted === true;
    throw new StablepayConnectionError({
      message: timedOut
        ? `${req.method} ${req.url} timed out after ${config.timeoutMs} ms`
        : `${req.method} ${req.url} failed: ${describe(cause)}`,
      code: 'CONNECTION_ERROR',
      cause,
    });
  }
}

/**
 * Sends a request with retries (see retry.ts) and returns a 2xx answer; any other answer becomes
 * the typed error of its code.
 */
export async function send(config: HttpConfig, req: HttpRequest): Promise<HttpResponse> {
  for (let retry = 0; ; retry++) {
    let failure: StablepayError;
    let retryAfter: number | undefined;
    try {
      const res = await attempt(config, req);
      if (res.status >= 200 && res.status < 300) return res;
      failure = errorFromResponse(res.status, res.body, res.headers);
      retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    } catch (error) {
      if (!(error instanceof StablepayConnectionError)) throw error;
      failure = error;
    }
    if (retry >= config.maxRetries || !isRetriable(failure, req.retry)) throw failure;
    const wait = retryDelayMs(retry, retryAfter, config);
    if (wait === undefined) throw failure;
    await sleep(wait);
  }
}

/**
 * Successes of the API are JSON objects (but a 204): anything else (an HTML page from a wrong
 * baseUrl, a proxy's text) must not be handed back as if it were one.
 */
export function assertJsonObject(res: HttpResponse, method: string, url: string): void {
  if (typeof res.body === 'object' && res.body !== null) return;
  throw new StablepayError({
    message: `Expected a JSON object from ${method} ${url}, got ${res.headers.get('content-type') ?? 'no content type'} (is baseUrl the stablepay API?)`,
    code: 'UNEXPECTED_RESPONSE',
    status: res.status,
    requestId: res.headers.get('x-request-id') ?? undefined,
    headers: res.headers,
    body: res.body,
  });
}
