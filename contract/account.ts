import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { TOKENS, errors, merchantAuth } from './common';
import { merchantErrors } from './shapes';

const c = initContract();

/** The fiat currencies a price may be quoted in (POST /orders quoteCurrency, the point of sale). */
export const POS_FIAT_CURRENCIES = ['BRL', 'EUR'] as const;
/** What the point of sale sells in: a fiat currency (priced by quote) or a token (token units). */
export const ACCOUNT_CURRENCIES = [...POS_FIAT_CURRENCIES, ...TOKENS] as const;
export const ZAccountCurrency = z
  .enum(ACCOUNT_CURRENCIES)
  .describe('BRL or EUR (a price by quote at a live rate) or a token (USDT, USDC: token units)');
export type AccountCurrency = z.infer<typeof ZAccountCurrency>;
export const isFiatCurrency = (currency: AccountCurrency): currency is (typeof POS_FIAT_CURRENCIES)[number] =>
  (POS_FIAT_CURRENCIES as readonly string[]).includes(currency);

export const MAX_TIP_OPTIONS = 5;
export const ZTipPercentages = z
  .array(z.number().int().min(1).max(100))
  .max(MAX_TIP_OPTIONS)
  .refine((p) => new Set(p).size === p.length, 'must not repeat')
  .describe(
    `The tips the point of sale offers, in percent (e.g. [10, 15, 20]); empty: no tip. At most ${MAX_TIP_OPTIONS}`,
  );

export const ZPayoutApprovals = z
  .union([z.literal(1), z.literal(2)])
  .describe(
    'How many members approve a payout: 1, or 2 (its creator and another member with payouts:approve). Batches keep what was asked when they were made',
  );

export const ZAccount = z
  .object({
    id: z.string().max(36).uuid(),
    name: z.string().max(200).nullable().describe('Shown to payers as the merchant name'),
    currency: ZAccountCurrency.describe('What the point of sale sells in (default USDT)'),
    tipPercentages: z.array(z.number().int().min(1).max(100)).max(MAX_TIP_OPTIONS),
    requireTwoFactor: z.boolean().describe('Every member signs in with two-factor (set by the owner)'),
    payoutApprovals: ZPayoutApprovals,
  })
  .describe('The account: its name, point-of-sale settings and sign-in rule');
export type Account = z.infer<typeof ZAccount>;

export const ZUpdateAccountBody = z
  .object({
    name: z.string().trim().min(1).max(200).nullable().optional(),
    currency: ZAccountCurrency.optional(),
    tipPercentages: ZTipPercentages.optional(),
    requireTwoFactor: z
      .boolean()
      .optional()
      .describe(
        'Owner only (needs account:security): every member signs in with two-factor; members without it are sent to enrol and their older tokens and sessions stop',
      ),
    payoutApprovals: ZPayoutApprovals.optional(),
  })
  .strict()
  .describe('Only the fields given change');
export type UpdateAccountBody = z.infer<typeof ZUpdateAccountBody>;
/** The body of PATCH /account (the SDK's name for it). */
export const ZAccountPatch = ZUpdateAccountBody;
export type AccountPatch = UpdateAccountBody;

export const accountContract = c.router(
  {
    get: {
      method: 'GET',
      path: '/account',
      summary: "The account's name and point-of-sale settings",
      description:
        'Every member reads it (the point of sale needs it): the name payers see, the currency the point of sale sells in (default USDT) and the tips it offers.',
      metadata: merchantAuth('account:read', 'account:read'),
      responses: { 200: ZAccount, ...merchantErrors },
    },
    update: {
      method: 'PATCH',
      path: '/account',
      summary: "Change the account's name, currency, tips, payout approvals or sign-in rule",
      description:
        "The point of sale sells in `currency` (BRL, EUR: priced by quote; a token: token units) and offers `tipPercentages` (empty: no tip). `payoutApprovals` 2 asks for two people on each payout made from then on (its creator and another member). `requireTwoFactor` is the owner's alone (needs account:security, with the login token or the session, and the owner's own two-factor on first: 409 otherwise); members without two-factor are then sent to enrol at sign-in, and their older tokens and sessions stop at once.",
      metadata: merchantAuth('account:write', 'account:write'),
      body: ZUpdateAccountBody,
      responses: {
        200: ZAccount,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'CONFLICT', 'PAYLOAD_TOO_LARGE'),
      },
    },
  },
  { strictStatusCodes: true },
);
