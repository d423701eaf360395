import { validate as cronValidate } from 'node-cron';
import { z } from 'zod';

/** The value types environment variables are read as (server/config.ts). */
export const positiveInt = z.coerce.number().int().positive();

/** `BRL:5.25,EUR:0.92` -> { BRL: '5.25', EUR: '0.92' } (fiat per 1 USD, kept as decimal strings). */
export const staticRates = z.string().transform((raw, ctx) => {
  const rates: Record<string, string> = {};
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([A-Z]{3}):(\d+(?:\.\d+)?)$/.exec(part);
    if (!match || /^0+(\.0+)?$/.test(match[2]!)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `bad rate "${part}", expected CUR:rate` });
      return z.NEVER;
    }
    rates[match[1]!] = match[2]!;
  }
  return rates;
});

/** `a, b,c` -> ['a', 'b', 'c']: the entries of a comma-separated value, blanks dropped. */
export const commaSplit = z.string().transform((raw) =>
  raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean),
);

/** A comma-separated value's entries, each checked by `item`; at least one. */
export const commaList = (item: z.ZodString) => commaSplit.pipe(z.array(item).min(1));

export const currencyList = commaList(z.string().regex(/^[A-Z]{3}$/, 'three upper-case letters'));

export const url = z.string().url();

/** `https://a,https://b` -> ['https://a', 'https://b']: endpoints tried in order, failing over on errors. */
export const urlList = commaList(z.string().url('each comma-separated entry must be a URL'));

export const cron = z.string().refine((v) => cronValidate(v), 'must be a cron pattern, e.g. "*/5 * * * * *"');
