import { ApiError } from '../errors';
import type { FxRate, RateProvider } from './rate-provider';

export type FrankfurterRateProviderOptions = {
  baseUrl: string;
  timeoutMs: number;
  clock?: () => Date;
};

const SOURCE = 'frankfurter';
/** A plain decimal: JSON numbers of the feed are written back in their shortest form, never as 1e-7. */
const RATE = /^\d+(\.\d+)?$/;

/**
 * Frankfurter (open source, no key; central-bank reference rates, published daily):
 * `GET /v1/latest?base=USD&symbols=BRL` -> `{"amount":1,"base":"USD","date":"…","rates":{"BRL":5.41}}`.
 * The fallback feed: slower-moving than Coinbase's, but independent of it.
 */
export function createFrankfurterRateProvider(options: FrankfurterRateProviderOptions): RateProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const clock = options.clock ?? (() => new Date());
  return {
    source: SOURCE,
    async getRate(currency: string): Promise<FxRate> {
      const url = `${base}/v1/latest?base=USD&symbols=${encodeURIComponent(currency)}`;
      const body = await fetchJson(url, options.timeoutMs);
      const rates = isRecord(body) && body.base === 'USD' && isRecord(body.rates) ? body.rates : null;
      if (!rates) throw unavailable('unexpected response shape');
      const value = rates[currency];
      const rate = typeof value === 'number' && value > 0 && Number.isFinite(value) ? String(value) : null;
      if (rate === null || !RATE.test(rate)) throw unavailable(`no valid rate for ${currency}`);
      return { currency, rate, source: SOURCE, fetchedAt: clock() };
    },
  };
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    // The signal also covers reading the body, so a feed that stalls mid-response still times out.
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
    throw unavailable(timedOut ? `timeout after ${timeoutMs} ms` : String(cause?.code ?? 'request failed'));
  }
  // Frankfurter answers an unknown currency with 404 {"message":"not found"}.
  if (response.status === 404) throw unavailable('currency not offered');
  if (!response.ok) throw unavailable(`HTTP ${response.status}`);
  try {
    return JSON.parse(text);
  } catch {
    throw unavailable('malformed JSON');
  }
}

function unavailable(reason: string): ApiError {
  return ApiError.upstream(`FX feed ${SOURCE} unavailable: ${reason}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
