import type { CreateOrderBody } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { parseDecimal, parseUnits, WIRE_DECIMALS, wireStep } from '../../contract/decimal';
import { convertQuote } from '../fx/exact-rate';

/** Largest amount an order may ask for: 10^12 tokens. */
const MAX_AMOUNT_WIRE_UNITS = 10n ** 18n;

export type Price = {
  amountUnits: bigint;
  quote: { currency: string; units: bigint; rate: string; source: string; at: Date } | null;
};

/** A fiat currency the operator quotes in (QUOTE_CURRENCIES), else 400. */
export function checkQuoteCurrency(deps: Pick<Deps, 'config'>, currency: string): void {
  if (!deps.config.QUOTE_CURRENCIES.includes(currency))
    throw ApiError.field('body.quoteCurrency', `must be one of ${deps.config.QUOTE_CURRENCIES.join(', ')}`);
}

/**
 * Token base units (of a token with `decimals`) for the order: given directly, or a fiat quote
 * converted and rounded up to the 6th decimal place, the most an amount on the wire has.
 */
export async function priceOrder(
  deps: Pick<Deps, 'config' | 'rates'>,
  body: CreateOrderBody,
  decimals: number,
): Promise<Price> {
  if (body.amount !== undefined) return { amountUnits: parseUnits(body.amount, decimals), quote: null };
  const currency = body.quoteCurrency!;
  checkQuoteCurrency(deps, currency);
  const quoteUnits = parseUnits(body.quoteAmount!, WIRE_DECIMALS);
  const fx = await deps.rates.getRate(currency);
  const wireUnits = convertQuote(quoteUnits, parseDecimal(fx.rate));
  if (wireUnits > MAX_AMOUNT_WIRE_UNITS) throw ApiError.field('body.quoteAmount', 'is too large');
  return {
    amountUnits: wireUnits * wireStep(decimals),
    quote: { currency, units: quoteUnits, rate: fx.rate, source: fx.source, at: fx.fetchedAt },
  };
}
