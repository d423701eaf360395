/** A fiat exchange rate: `rate` units of `currency` per 1 USD, as an exact decimal string. */
export type FxRate = { currency: string; rate: string; source: string; fetchedAt: Date };

/**
 * A source of USD exchange rates. USDT and USDC are both priced at the USD rate.
 * Implementations throw ApiError UPSTREAM_UNAVAILABLE when they cannot answer.
 */
export interface RateProvider {
  readonly source: string;
  getRate(currency: string): Promise<FxRate>;
}
