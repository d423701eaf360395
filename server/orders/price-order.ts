import type { CreateOrderBody } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { convertQuote, parseDecimal, parseUnits } from '../lib/decimal';

/** Largest amount the database column holds with room to spare: 10^12 tokens. */
const MAX_AMOUNT_UNITS = 10n ** 18n;

export type Price = {
  amountUnits: bigint;
  quote: { currency: string; units: bigint; rate: string; source: string; at: Date } | null;
};

/** Token base units for the order: given directly, or a fiat quote converted and rounded up. */
export async function priceOrder(
  deps: Pick<Deps, 'config' | 'rates'>,
  body: CreateOrderBody,
): Promise<Price> {
  if (body.amount !== undefined) return { amountUnits: parseUnits(body.amount), quote: null };
  const currency = body.quoteCurrency!;
  if (!deps.config.QUOTE_CURRENCIES.includes(currency))
    throw ApiError.field('body.quoteCurrency', `must be one of ${deps.config.QUOTE_CURRENCIES.join(', ')}`);
  const quoteUnits = parseUnits(body.quoteAmount!);
  const fx = await deps.rates.getRate(currency);
  const amountUnits = convertQuote(quoteUnits, parseDecimal(fx.rate));
  if (amountUnits > MAX_AMOUNT_UNITS) throw ApiError.field('body.quoteAmount', 'is too large');
  return {
    amountUnits,
    quote: { currency, units: quoteUnits, rate: fx.rate, source: fx.source, at: fx.fetchedAt },
  };
}
