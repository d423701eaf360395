import type { FxRate, RateProvider } from './rate-provider';

export type CacheOptions = {
  /** 0 disables caching; concurrent calls are still coalesced. */
  ttlSeconds: number;
  clock?: () => Date;
};

/**
 * Caches successful rates per currency and coalesces concurrent lookups into one upstream request.
 * Failures are not cached so the next caller retries the feed.
 */
export function withCache(provider: RateProvider, options: CacheOptions): RateProvider {
  const clock = options.clock ?? (() => new Date());
  const ttlMs = options.ttlSeconds * 1000;
  const cached = new Map<string, { rate: FxRate; expiresAt: number }>();
  const inFlight = new Map<string, Promise<FxRate>>();

  return {
    source: provider.source,
    getRate(currency: string): Promise<FxRate> {
      const hit = cached.get(currency);
      if (hit && clock().getTime() < hit.expiresAt) return Promise.resolve(hit.rate);

      const pending = inFlight.get(currency);
      if (pending) return pending;

      const request = provider
        .getRate(currency)
        .then((rate) => {
          if (ttlMs > 0) cached.set(currency, { rate, expiresAt: clock().getTime() + ttlMs });
          return rate;
        })
        .finally(() => inFlight.delete(currency));
      inFlight.set(currency, request);
      return request;
    },
  };
}
