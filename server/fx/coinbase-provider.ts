import { ApiError } from '../errors';
import type { FxRate, RateProvider } from './rate-provider';

export type CoinbaseRateProviderOptions = {
  baseUrl: string;
  timeoutMs: number;
  clock?: () => Date;
};

const SOURCE = 'coinbase';
const RATE = /^(\d+)(?:\.(\d+))?$/;
/** Beyond this the extra digits cannot change a 6-decimal token amount; truncating keeps scales bounded. */
const MAX_RATE_DECIMALS = 18;

/** Coinbase's public `GET /v2/exchange-rates?currency=USD`: fiat per 1 USD as decimal strings. */
export function createCoinbaseRateProvider(options: CoinbaseRateProviderOptions): RateProvider {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v2/exchange-rates?currency=USD`;
  const clock = options.clock ?? (() => new Date());

  return {
    source: SOURCE,
    async getRate(currency: string): Promise<FxRate> {
      const rates = await fetchRates(url, options.timeoutMs);
      if (!Object.hasOwn(rates, currency)) throw unavailable(`no rate for ${currency}`);
      const rate = normalizeRate(rates[currency]);
      if (rate === null) throw unavailable(`invalid rate for ${currency}`);
      return { currency, rate, source: SOURCE, fetchedAt: clock() };
    },
  };
}

async function fetchRates(url: string, timeoutMs: number): Promise<Record<string, unknown>> {
  let status: number;
  let text: string;
  try {
    // The signal also covers reading the body, so a feed that stalls mid-response still times out.
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw unavailable(describeFetchError(error, timeoutMs));
  }
  if (status < 200 || status > 299) throw unavailable(`HTTP ${status}`);

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw unavailable('malformed JSON');
  }
  const data = isRecord(body) ? body.data : undefined;
  if (!isRecord(data) || !isRecord(data.rates)) throw unavailable('unexpected response shape');
  if (data.currency !== 'USD') throw unavailable(`unexpected base currency ${String(data.currency)}`);
  return data.rates;
}

function normalizeRate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = RATE.exec(value);
  if (!match) return null;
  const fraction = (match[2] ?? '').slice(0, MAX_RATE_DECIMALS);
  if (/^0*$/.test(match[1]! + fraction)) return null;
  return fraction ? `${match[1]}.${fraction}` : match[1]!;
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `timeout after ${timeoutMs} ms`;
  // undici reports network failures as TypeError('fetch failed') with the system error as cause.
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : 'request failed';
}

function unavailable(reason: string): ApiError {
  return ApiError.upstream(`FX feed ${SOURCE} unavailable: ${reason}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
