import { z } from 'zod';
import { URL_MAX, ZNetwork, ZToken } from './common';
import { LOCALES } from './locales';

/** Fields an order's request and answer share with subscriptions, profiles and deliveries. */

export const METADATA_MAX_BYTES = 4096;

/** A language of the customer's pages and e-mails. */
export const ZLocale = z.enum(LOCALES);

export const ZHttpUrl = z
  .string()
  .max(URL_MAX)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

/** Telegram chat ids: a (possibly negative) integer or an @channel username. */
export const ZMessengerChatId = z
  .string()
  .max(33)
  .regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/, 'must be a numeric chat id or an @username');

/** Size as JSON; anything that cannot be serialised (e.g. nested too deep) counts as too big. */
const jsonBytes = (value: unknown) => {
  try {
    return new TextEncoder().encode(JSON.stringify(value)).length;
  } catch {
    return Infinity;
  }
};

export const ZMetadata = z
  .record(z.unknown())
  .refine((m) => jsonBytes(m) <= METADATA_MAX_BYTES, `must be at most ${METADATA_MAX_BYTES} bytes as JSON`)
  .describe('Free-form object of the merchant, returned as given (at most 4 KB)');

/** A way to pay as a request names it: a network and a token. */
export const ZNetworkToken = z.object({ network: ZNetwork, token: ZToken }).strict();
export type NetworkToken = z.infer<typeof ZNetworkToken>;

/** Most ways an order can be paid, its first (network, token) included. */
export const MAX_PAYMENT_OPTIONS = 16;

/**
 * The price rule of an order and of a subscription: `amount` (token units) or `quoteCurrency` +
 * `quoteAmount` (a fiat price), never both.
 */
export function checkPrice(
  body: { amount?: string; quoteCurrency?: string; quoteAmount?: string },
  ctx: z.RefinementCtx,
): void {
  const hasAmount = body.amount !== undefined;
  const hasQuote = body.quoteCurrency !== undefined || body.quoteAmount !== undefined;
  if (hasAmount && hasQuote) {
    ctx.addIssue({
      code: 'custom',
      path: ['amount'],
      message: 'send either amount or quoteCurrency + quoteAmount, not both',
    });
  } else if (!hasAmount && !hasQuote) {
    ctx.addIssue({
      code: 'custom',
      path: ['amount'],
      message: 'send either amount or quoteCurrency + quoteAmount',
    });
  } else if (hasQuote && body.quoteCurrency === undefined) {
    ctx.addIssue({ code: 'custom', path: ['quoteCurrency'], message: 'is required with quoteAmount' });
  } else if (hasQuote && body.quoteAmount === undefined) {
    ctx.addIssue({ code: 'custom', path: ['quoteAmount'], message: 'is required with quoteCurrency' });
  }
}

export const ORDER_SOURCES = ['api', 'dashboard', 'pos', 'subscription'] as const;
export const ZOrderSource = z.enum(ORDER_SOURCES);
export type OrderSource = z.infer<typeof ZOrderSource>;
/** What POST /orders may say it comes from (a subscription's orders are the server's own). */
export const ZCreateSource = z.enum(['api', 'dashboard', 'pos']);
