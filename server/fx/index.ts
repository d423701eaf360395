import type { Config } from '../config';
import { withCache } from './cached-provider';
import { createCoinbaseRateProvider } from './coinbase-provider';
import { withFallback } from './fallback-provider';
import { createFrankfurterRateProvider } from './frankfurter-provider';
import type { RateProvider } from './rate-provider';
import { createStaticRateProvider } from './static-provider';

export type { FxRate, RateProvider } from './rate-provider';
export type { CacheOptions } from './cached-provider';
export type { CoinbaseRateProviderOptions } from './coinbase-provider';
export type { FrankfurterRateProviderOptions } from './frankfurter-provider';
export {
  withCache,
  withFallback,
  createCoinbaseRateProvider,
  createFrankfurterRateProvider,
  createStaticRateProvider,
};

export type FxConfig = Pick<
  Config,
  'FX_PROVIDER' | 'FX_STATIC_RATES' | 'FX_COINBASE_URL' | 'FX_CACHE_SECONDS' | 'FX_TIMEOUT_MS'
> &
  Partial<Pick<Config, 'FX_FALLBACK_PROVIDER' | 'FX_FRANKFURTER_URL'>>;

type LiveFeed = 'coinbase' | 'frankfurter';

function liveFeed(config: FxConfig, feed: LiveFeed, clock: () => Date): RateProvider {
  const options = { timeoutMs: config.FX_TIMEOUT_MS, clock };
  return feed === 'coinbase'
    ? createCoinbaseRateProvider({ ...options, baseUrl: config.FX_COINBASE_URL })
    : createFrankfurterRateProvider({
        ...options,
        baseUrl: config.FX_FRANKFURTER_URL ?? 'https://api.frankfurter.dev',
      });
}

/** The feeds that price quotes, in the order they are asked: what the start-up log names. */
export function rateFeeds(config: FxConfig): string[] {
  if (config.FX_PROVIDER === 'static') return ['static'];
  const fallback = config.FX_FALLBACK_PROVIDER;
  return fallback && fallback !== 'none' && fallback !== config.FX_PROVIDER
    ? [config.FX_PROVIDER, fallback]
    : [config.FX_PROVIDER];
}

export function createRateProvider(config: FxConfig, clock: () => Date = () => new Date()): RateProvider {
  if (config.FX_PROVIDER === 'static') return createStaticRateProvider(config.FX_STATIC_RATES, clock);
  const [primary, ...fallbacks] = rateFeeds(config).map((feed) => liveFeed(config, feed as LiveFeed, clock));
  // Cached as a whole: a rate from the fallback is kept as long as one from the primary would be.
  const provider = fallbacks.length ? withFallback(primary!, ...fallbacks) : primary!;
  return withCache(provider, { ttlSeconds: config.FX_CACHE_SECONDS, clock });
}
