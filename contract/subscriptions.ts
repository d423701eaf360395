import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  DESCRIPTION_MAX,
  ZDateTime,
  ZDecimalAmount,
  ZDecimalOut,
  ZFiatCurrency,
  ZNetwork,
  ZToken,
  ZTokenDecimals,
  ZUrlOut,
  errors,
  merchantAuth,
} from './common';
import {
  ZHttpUrl,
  ZMetadata,
  ZNetworkToken,
  ZOrderCursorPage,
  MAX_PAYMENT_OPTIONS,
  checkPrice,
} from './orders';
import {
  ZIdempotencyHeaders,
  cursorPage,
  cursorQuery,
  merchantErrors,
  orderErrors,
  orderWriteErrors,
} from './shapes';

const c = initContract();

export const SUBSCRIPTION_STATUSES = [
  'INCOMPLETE',
  'TRIALING',
  'ACTIVE',
  'PAST_DUE',
  'PAUSED',
  'CANCELED',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const ZSubscriptionStatus = z
  .enum(SUBSCRIPTION_STATUSES)
  .describe(
    'INCOMPLETE (no trial, first order not yet paid) or TRIALING (in the trial) -> ACTIVE (the period\u2019s order is PAID) -> PAST_DUE (a period\u2019s order expired unpaid; a new one for the same period is made at once) -> ACTIVE again when paid, or CANCELED after SUBSCRIPTION_CANCEL_AFTER_DAYS past due. PAUSED makes no orders until resumed. CANCELED is final',
  );

export const SUBSCRIPTION_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type SubscriptionInterval = (typeof SUBSCRIPTION_INTERVALS)[number];
/** The most periods of an interval one billing period may span: a year at most. */
export const MAX_INTERVAL_COUNT: Record<SubscriptionInterval, number> = {
  day: 365,
  week: 52,
  month: 12,
  year: 1,
};

/** The languages the customer's pages and e-mails speak (the checkout's). */
export const CUSTOMER_LANGUAGES = ['en', 'pt-BR', 'es'] as const;
export const ZCustomerLanguage = z.enum(CUSTOMER_LANGUAGES);

export const ZSubscriptionId = z
  .string()
  .max(40)
  .regex(/^sub_[A-Za-z0-9]{1,36}$/, 'must be a subscription id (sub_…)');
export const ZSubscriptionParams = z.object({ id: ZSubscriptionId.describe('The subscription id') });

const ZEmail = z.string().trim().max(254).email();

export const ZCustomer = z
  .object({
    email: ZEmail.optional().describe(
      'Where each period\u2019s order, reminders and receipts are mailed (with SMTP_URL)',
    ),
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('Shown on the customer\u2019s page and in e-mails'),
    reference: z.string().trim().min(1).max(200).optional().describe('Your own id for the customer'),
    language: ZCustomerLanguage.optional().describe(
      'The language of the customer\u2019s page and e-mails (default en)',
    ),
  })
  .strict();

const DUE_DAYS_MAX = 365;

export const ZCreateSubscriptionBody = z
  .object({
    customer: ZCustomer.default({}),
    interval: z.enum(SUBSCRIPTION_INTERVALS).describe('The calendar unit of a period (UTC)'),
    intervalCount: z
      .number()
      .int()
      .min(1)
      .max(365)
      .default(1)
      .describe('Units per period: at most 365 days, 52 weeks, 12 months or 1 year'),
    amount: ZDecimalAmount.optional().describe(
      'The price per period in token units; give this or the quote pair',
    ),
    quoteCurrency: ZFiatCurrency.optional().describe('Fiat currency of the price (BRL, EUR)'),
    quoteAmount: ZDecimalAmount.optional().describe(
      'Fiat price per period, converted at each period\u2019s live rate',
    ),
    network: ZNetwork.describe('The first payment option\u2019s network of each period\u2019s order'),
    token: ZToken.describe('The first payment option\u2019s token'),
    paymentOptions: z
      .union([z.literal('all'), z.array(ZNetworkToken).min(1).max(MAX_PAYMENT_OPTIONS)])
      .optional()
      .describe('More ways to pay each order, as POST /orders takes them'),
    description: z.string().trim().min(1).max(DESCRIPTION_MAX).optional().describe('Shown to the customer'),
    metadata: ZMetadata.optional(),
    webhookUrl: ZHttpUrl.optional().describe(
      'Webhook URL for this subscription and its orders (else the profile\u2019s)',
    ),
    startAt: ZDateTime.optional().describe(
      'When the first period starts (after the trial); default now, never in the past',
    ),
    trialDays: z.number().int().min(0).max(365).default(0).describe('Days before the first period, unbilled'),
    dueDays: z
      .number()
      .int()
      .min(1)
      .max(DUE_DAYS_MAX)
      .optional()
      .describe(
        'How long each period\u2019s order stays payable; default the smaller of 7 and one period, at most one period',
      ),
  })
  .strict()
  .superRefine((body, ctx) => {
    checkPrice(body, ctx);
    const max = MAX_INTERVAL_COUNT[body.interval];
    if (body.intervalCount > max)
      ctx.addIssue({
        code: 'custom',
        path: ['intervalCount'],
        message: `must be at most ${max} for interval ${body.interval}`,
      });
  });
export type CreateSubscriptionBody = z.infer<typeof ZCreateSubscriptionBody>;

export const ZSubscription = z
  .object({
    id: ZSubscriptionId,
    status: ZSubscriptionStatus,
    customer: z.object({
      email: z.string().max(254).nullable(),
      name: z.string().max(200).nullable(),
      reference: z.string().max(200).nullable(),
      language: ZCustomerLanguage,
    }),
    interval: z.enum(SUBSCRIPTION_INTERVALS),
    intervalCount: z.number().int().min(1).max(365),
    amount: ZDecimalOut.nullable().describe('The price per period in token units (null for a fiat price)'),
    quoteCurrency: ZFiatCurrency.nullable(),
    quoteAmount: ZDecimalOut.nullable(),
    network: ZNetwork,
    token: ZToken,
    decimals: ZTokenDecimals,
    paymentOptions: z
      .union([z.literal('all'), z.array(ZNetworkToken).max(MAX_PAYMENT_OPTIONS)])
      .nullable()
      .describe('More ways to pay each order, as given'),
    description: z.string().max(DESCRIPTION_MAX).nullable(),
    metadata: z.record(z.unknown()).nullable(),
    webhookUrl: ZUrlOut.nullable(),
    trialDays: z.number().int().min(0).max(365),
    trialEnd: ZDateTime.nullable().describe(
      'When the trial ends (the first period starts); null without one',
    ),
    dueDays: z.number().int().min(1).max(DUE_DAYS_MAX),
    currentPeriodStart: ZDateTime.nullable().describe('Null before the first period'),
    currentPeriodEnd: ZDateTime.nullable(),
    nextOrderAt: ZDateTime.nullable().describe('When the next order is made; null when paused or canceled'),
    latestOrderReference: z.string().max(64).nullable(),
    manageUrl: ZUrlOut.describe(
      'The customer\u2019s page (public, secret): the plan, the order due now, cancel',
    ),
    cancelAtPeriodEnd: z.boolean(),
    pastDueSince: ZDateTime.nullable(),
    canceledAt: ZDateTime.nullable(),
    createdAt: ZDateTime,
    updatedAt: ZDateTime,
  })
  .describe('A subscription: an order every period, sent to the customer');
export type Subscription = z.infer<typeof ZSubscription>;

export const ZSubscriptionPage = cursorPage(ZSubscription).describe('A cursor page of subscriptions');

export const ZListSubscriptionsQuery = z.object({
  ...cursorQuery('Empty or absent to start, then the previous nextCursor'),
  status: ZSubscriptionStatus.optional().describe('Only subscriptions in this status'),
  customer_email: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .optional()
    .describe('Only this customer\u2019s (any case)'),
});

export const ZCancelSubscriptionBody = z
  .object({
    atPeriodEnd: z
      .boolean()
      .optional()
      .describe('True: keep it until the current period ends (no further order); default false: now'),
  })
  .strict();

export const subscriptionsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/subscriptions',
      summary: 'Create a subscription',
      description:
        'An order every period, made by the service at the period\u2019s start (UTC calendar periods anchored at `startAt`, after `trialDays`: a monthly one started on the 31st falls on the last day of shorter months) and payable `dueDays`. Nothing is pulled from a wallet: the customer pays each order (mailed to them with SMTP_URL; `manageUrl` is their page). `Idempotency-Key` honoured.',
      metadata: merchantAuth('subscriptions:write', 'subscriptions:write'),
      headers: ZIdempotencyHeaders,
      body: ZCreateSubscriptionBody,
      responses: { 201: ZSubscription, ...orderWriteErrors, ...errors('UPSTREAM_UNAVAILABLE') },
    },
    list: {
      method: 'GET',
      path: '/subscriptions',
      summary: 'List subscriptions, newest first (cursor pages)',
      description:
        'Cursor pages (`per_page` up to 50, `cursor` from the previous `nextCursor`), the same cost at any depth. `status` picks one status; `customer_email` matches the customer\u2019s address without case.',
      metadata: merchantAuth('subscriptions:read', 'subscriptions:read'),
      query: ZListSubscriptionsQuery,
      responses: { 200: ZSubscriptionPage, ...errors('VALIDATION_ERROR'), ...merchantErrors },
    },
    get: {
      method: 'GET',
      path: '/subscriptions/:id',
      summary: 'Get one subscription',
      description:
        'The subscription as it is now: its status, current period, next order and latest order. 404 for an unknown one or another merchant\u2019s.',
      metadata: merchantAuth('subscriptions:read', 'subscriptions:read'),
      pathParams: ZSubscriptionParams,
      responses: { 200: ZSubscription, ...orderErrors },
    },
    orders: {
      method: 'GET',
      path: '/subscriptions/:id/orders',
      summary: 'The orders of a subscription, newest first (cursor pages)',
      description:
        'Every order made for it, each with `subscriptionId` and `period` (`index`, `start`, `end`): one per period, and more for a period whose order expired unpaid and was made again.',
      metadata: merchantAuth('subscriptions:read', 'subscriptions:read'),
      pathParams: ZSubscriptionParams,
      query: z.object(cursorQuery('Empty or absent to start, then the previous nextCursor')),
      responses: { 200: ZOrderCursorPage, ...errors('VALIDATION_ERROR'), ...orderErrors },
    },
    cancel: {
      method: 'POST',
      path: '/subscriptions/:id/cancel',
      summary: 'Cancel a subscription, now or at the end of its period',
      description:
        'Now: CANCELED at once, no further order (an open order stays payable until it expires). `atPeriodEnd`: no order after the current period, then CANCELED. 409 when already CANCELED.',
      metadata: merchantAuth('subscriptions:write', 'subscriptions:write'),
      pathParams: ZSubscriptionParams,
      body: ZCancelSubscriptionBody,
      responses: { 200: ZSubscription, ...orderWriteErrors },
    },
    pause: {
      method: 'POST',
      path: '/subscriptions/:id/pause',
      summary: 'Pause a subscription: no orders until resumed',
      description:
        'PAUSED: no order is made until it is resumed (an open order stays payable and its payment is recorded). 409 when already PAUSED or CANCELED.',
      metadata: merchantAuth('subscriptions:write', 'subscriptions:write'),
      pathParams: ZSubscriptionParams,
      body: c.noBody(),
      responses: { 200: ZSubscription, ...orderWriteErrors },
    },
    resume: {
      method: 'POST',
      path: '/subscriptions/:id/resume',
      summary: 'Resume a paused subscription',
      description:
        'Orders start again from the period that holds now: its order is made at once when it has none open or paid.',
      metadata: merchantAuth('subscriptions:write', 'subscriptions:write'),
      pathParams: ZSubscriptionParams,
      body: c.noBody(),
      responses: { 200: ZSubscription, ...orderWriteErrors },
    },
  },
  { strictStatusCodes: true },
);
