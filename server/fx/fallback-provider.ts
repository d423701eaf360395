import { ApiError } from '../errors';
import type { FxRate, RateProvider } from './rate-provider';

/**
 * The first feed that answers: a quote is priced by `primary`, and only when it cannot answer
 * (UPSTREAM_UNAVAILABLE) by the next. The rate keeps the source that gave it, so an order's
 * fxSource says which feed priced it. Other errors (an unsupported currency) are final.
 */
export function withFallback(primary: RateProvider, ...fallbacks: RateProvider[]): RateProvider {
  const chain = [primary, ...fallbacks];
  return {
    source: chain.map((p) => p.source).join(','),
    async getRate(currency: string): Promise<FxRate> {
      const failures: string[] = [];
      for (const provider of chain) {
        try {
          return await provider.getRate(currency);
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== 'UPSTREAM_UNAVAILABLE') throw error;
          failures.push(error.message);
        }
      }
      throw ApiError.upstream(failures.join('; '));
    },
  };
}
