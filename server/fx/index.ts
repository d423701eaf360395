import type { Config } from '../config';
import { withCache } from './cached-provider';
import { createCoinbaseRateProvider } from './coinbase-provider';
import type { RateProvider } from './rate-provider';
import { createStaticRateProvider } from './static-provider';

export type { FxRate, RateProvider } from './rate-provider';
export type { CacheOptions } from './cached-provider';
export type { CoinbaseRateProviderOptions } from './coinbase-provider';
export { withCache, createCoinbaseRateProvider, createStaticRateProvider };

export type FxConfig = Pick<
  Config,
  'FX_PROVIDER' | 'FX_STATIC_RATES' | 'FX_COINBASE_URL' | 'FX_CACHE_SECONDS' | 'FX_TIMEOUT_MS'
>;

export function createRateProvider(config: FxConfig, clock: () => Date = () => new Date()): RateProvider {
  switch (config.FX_PROVIDER) {
    case 'static':
      return createStaticRateProvider(config.FX_STATIC_RATES, clock);
    case 'coinbase':
      return withCache(
        createCoinbaseRateProvider({
          baseUrl: config.FX_COINBASE_URL,
          timeoutMs: config.FX_TIMEOUT_MS,
          clock,
        }),
        { ttlSeconds: config.FX_CACHE_SECONDS, clock },
      );
  }
}
