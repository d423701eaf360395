import type { ServerResponse } from 'node:http';

/** The routes no rate limit counts, and whose answers say nothing of limits: probes and scrapers. */
export const UNLIMITED_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

/** A quota as far as this instance knows it, for one request that counted against it. */
export type RateLimitState = {
  /** The quota of the window (the configured limit). */
  limit: number;
  /** What is left of it in this window after this request. */
  remaining: number;
  /** Milliseconds until the window ends and the quota is whole again. */
  resetMs: number;
};

/** A state, or one that depends on the answer's status (a login's point comes back on success). */
type Source = RateLimitState | ((status: number) => RateLimitState);

const SOURCES = Symbol('rateLimitSources');
type Tracked = ServerResponse & { [SOURCES]?: Source[] };

/** The RateLimit-* header fields of a state: RateLimit-Reset is in whole seconds, rounded up. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(Math.max(0, Math.floor(state.remaining))),
    'RateLimit-Reset': String(Math.max(0, Math.ceil(state.resetMs / 1000))),
  };
}

/** RateLimit-* headers already on the response (a 429's, set from its ApiError), as a state. */
function headersState(res: ServerResponse): RateLimitState | undefined {
  const [limit, remaining, reset] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map(
    (name) => Number(res.getHeader(name)),
  );
  if (![limit, remaining, reset].every((n) => Number.isFinite(n))) return undefined;
  return { limit: limit!, remaining: remaining!, resetMs: reset! * 1000 };
}

/**
 * Records that the request counted against a quota: its answer, whatever it is (success, error,
 * 429), carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`. When several quotas
 * counted it (the refund-address form: its own and the public routes'; a password change: the
 * merchant's calls and the failed logins), the headers describe the one with the fewest requests
 * left, the one that will refuse first (a refusal's own headers, set with its 429, count too).
 * They are written as the status line goes out, so a state may depend on the status.
 */
export function countRateLimit(res: ServerResponse, source: Source): void {
  const tracked = res as Tracked;
  const sources = tracked[SOURCES];
  if (sources) {
    sources.push(source);
    return;
  }
  tracked[SOURCES] = [source];
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const status = typeof args[0] === 'number' ? args[0] : this.statusCode;
    const states = tracked[SOURCES]!.map((s) => (typeof s === 'function' ? s(status) : s));
    const preset = headersState(this);
    if (preset) states.push(preset);
    const closest = states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    if (!this.headersSent)
      for (const [name, value] of Object.entries(rateLimitHeaders(closest))) this.setHeader(name, value);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}
