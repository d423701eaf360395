import { ApiError } from '../errors';
import type { FxRate, RateProvider } from './rate-provider';

/** Fixed rates from configuration (fiat per 1 USD); useful offline and in tests. */
export function createStaticRateProvider(
  rates: Record<string, string>,
  clock: () => Date = () => new Date(),
): RateProvider {
  const table = new Map(Object.entries(rates));
  return {
    source: 'static',
    async getRate(currency: string): Promise<FxRate> {
      const rate = table.get(currency);
      if (rate === undefined) {
        const message = `unsupported currency ${currency}`;
        throw ApiError.validation(message, [{ path: 'body.quoteCurrency', message }]);
      }
      return { currency, rate, source: 'static', fetchedAt: clock() };
    },
  };
}
