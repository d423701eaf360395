import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZLoginBody, ZMfaBody, ZMfaRequired, ZTwoFactorSetupRequired } from './auth';
import {
  NETWORKS,
  ORDER_STATUSES,
  TOKENS,
  ZNetwork,
  ZFiatCurrency,
  ZToken,
  errors,
  isCalendarDate,
  loginOnly,
  merchantAuth,
  publicRoute,
} from './common';
import { merchantErrors } from './shapes';
import { PERMISSIONS, ZMemberSelf } from './permissions';
import { DECIMAL_TEXT } from './decimal';

const c = initContract();

/** The longest range a summary or an export covers. */
export const MAX_RANGE_DAYS = 366;

/** A calendar date, YYYY-MM-DD. */
export const ZCalendarDate = z
  .string()
  .max(10)
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
  .refine((v) => isCalendarDate(v, 2000), 'must be a date of the calendar, from 2000');

/**
 * Zones found valid so far, so that a request does not build an Intl.DateTimeFormat (about 50 µs)
 * to ask again. Only valid zones are kept (a few hundred exist), so the set stays small.
 */
const knownTimeZones = new Set<string>(['UTC']);
const isTimeZone = (tz: string) => {
  if (knownTimeZones.has(tz)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
  } catch {
    return false;
  }
  knownTimeZones.add(tz);
  return true;
};

/** An IANA time zone the server knows, e.g. America/Sao_Paulo. */
export const ZTimeZone = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9_+\-/]+$/, 'must be an IANA time zone, e.g. America/Sao_Paulo')
  .refine(isTimeZone, 'must be an IANA time zone, e.g. America/Sao_Paulo');

/**
 * A CSV answer: streamed by the server (never held whole), so its body is declared by its bound
 * (a year of a busy shop stays far below it) for the OpenAPI document, which says it as maxLength.
 */
const ZCsvStream = Object.assign(z.unknown(), { maxBytes: 2 ** 31 - 1 });

export const ZDateRangeQuery = z.object({
  from: ZCalendarDate.describe('First day (inclusive), in `timeZone`'),
  to: ZCalendarDate.describe(
    `Last day (inclusive), in \`timeZone\`; at most ${MAX_RANGE_DAYS} days after from`,
  ),
  timeZone: ZTimeZone.optional().describe('Where days begin and end (default UTC)'),
});

export const ZSummaryQuery = ZDateRangeQuery.extend({
  by: z
    .enum(['member'])
    .optional()
    .describe("`member`: also the range's sales of each member who made orders (`byMember`)"),
});

export const ZOrdersExportQuery = ZDateRangeQuery.extend({
  network: ZNetwork.optional().describe(
    'Only orders on this network: one of their payment options is on it (so is the one they were paid on)',
  ),
});

export const ZDashboardSession = z
  .object({
    merchant: z.object({
      id: z.string().uuid().max(36),
      email: z.string().max(254),
      full_name: z.string().max(200).nullable(),
    }),
    member: ZMemberSelf,
    permissions: z
      .array(z.enum(PERMISSIONS))
      .max(PERMISSIONS.length)
      .describe("What the member's role may do: the dashboard offers nothing else"),
    csrfToken: z
      .string()
      .max(64)
      .nullable()
      .describe(
        'Send as X-CSRF-Token with every POST, PATCH and DELETE of the session (null without a session cookie)',
      ),
    idleTimeoutSeconds: z
      .number()
      .int()
      .min(60)
      .max(31_536_000)
      .describe('The session ends after this long unused'),
  })
  .describe('The signed-in merchant, as the dashboard needs it');

const ZTokenAmount = z.object({
  network: ZNetwork,
  token: ZToken,
  amount: z.string().max(40).regex(DECIMAL_TEXT).describe('Decimal string, token units'),
});
const ZFiatAmount = z.object({
  currency: ZFiatCurrency,
  amount: z.string().max(40).regex(DECIMAL_TEXT).describe('Decimal string, 2 decimals'),
});
const MAX_AMOUNT_ROWS = NETWORKS.length * TOKENS.length;

/** One member's sales in a range: the orders it made (a cashier's at the point of sale). */
export const ZMemberSales = z.object({
  memberId: z.string().uuid().max(36),
  email: z.string().max(254),
  name: z.string().max(200).nullable(),
  ordersCreated: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  ordersPaid: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  received: z
    .array(z.object({ token: ZToken, amount: z.string().max(40).regex(DECIMAL_TEXT) }))
    .max(TOKENS.length)
    .describe('What its paid orders received, per token'),
  receivedFiat: z.array(ZFiatAmount).max(16).describe('Its paid orders priced in fiat, at their quote'),
});
export type MemberSales = z.infer<typeof ZMemberSales>;

export const ZDashboardSummary = z
  .object({
    from: ZCalendarDate,
    to: ZCalendarDate,
    timeZone: z.string().max(64),
    received: z
      .array(ZTokenAmount)
      .max(MAX_AMOUNT_ROWS)
      .describe('What final payments credited in the range, per network and token'),
    receivedFiat: z
      .array(ZFiatAmount)
      .max(16)
      .describe(
        "The same, in each quote currency, at each order's own quote rate (orders created from a fiat price)",
      ),
    ordersCreated: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    ordersPaid: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .describe('Orders created in the range that are PAID now'),
    byStatus: z
      .object(
        Object.fromEntries(
          ORDER_STATUSES.map((s) => [s, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]),
        ) as Record<(typeof ORDER_STATUSES)[number], z.ZodNumber>,
      )
      .describe('Orders created in the range, by status now'),
    days: z
      .array(
        z.object({
          date: ZCalendarDate,
          ordersCreated: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
          ordersPaid: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
          received: z.array(ZTokenAmount).max(MAX_AMOUNT_ROWS),
          receivedFiat: z.array(ZFiatAmount).max(16),
        }),
      )
      .max(MAX_RANGE_DAYS)
      .describe('One entry per day of the range, oldest first'),
    byMember: z
      .array(ZMemberSales)
      .max(10_000)
      .optional()
      .describe('With `by=member`: the orders each member (cashier) made in the range, most paid first'),
  })
  .describe("The overview's figures for a range of days");

export const dashboardContract = c.router(
  {
    signIn: {
      method: 'POST',
      path: '/dashboard/session',
      summary: 'Sign in to the dashboard (sets the session cookie)',
      description:
        'E-mail and password, as POST /auth/login (and limited the same way). Answers with the session and sets an httpOnly, SameSite=Strict cookie (Secure under https) that opens what the login token opens. A password change ends every session; so does DASHBOARD_SESSION_IDLE_HOURS without use. A member with two-factor sign-in gets `{mfaRequired, mfaToken}` and no cookie (send the code to POST /dashboard/session/mfa); in an account that requires two-factor, a member without it gets `{twoFactorSetupRequired, setupToken}`.',
      metadata: publicRoute,
      body: ZLoginBody,
      responses: {
        200: z.union([ZDashboardSession, ZMfaRequired, ZTwoFactorSetupRequired]),
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'PAYLOAD_TOO_LARGE'),
      },
    },
    signInMfa: {
      method: 'POST',
      path: '/dashboard/session/mfa',
      summary: "The second step of the dashboard's sign-in: the mfaToken and a code start the session",
      description:
        'As POST /auth/login/mfa, for an mfaToken that POST /dashboard/session gave: answers with the session and sets the cookie.',
      metadata: publicRoute,
      body: ZMfaBody,
      responses: {
        200: ZDashboardSession,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'PAYLOAD_TOO_LARGE'),
      },
    },
    session: {
      method: 'GET',
      path: '/dashboard/session',
      summary: 'The signed-in merchant and the CSRF token of the session',
      description:
        "What the dashboard asks when it opens: 200 with the merchant and the session's CSRF token while the session cookie is valid, 401 otherwise (sign in). With the login token it answers too, with `csrfToken` null. API keys get 403.",
      metadata: loginOnly('account:read'),
      responses: { 200: ZDashboardSession, ...merchantErrors },
    },
    signOut: {
      method: 'DELETE',
      path: '/dashboard/session',
      summary: 'Sign out: the session ends and the cookie is cleared',
      description:
        'Deletes the session, whatever the browser keeps, and clears the cookie. With the cookie it needs the X-CSRF-Token header like every change.',
      metadata: loginOnly('self:write'),
      body: c.noBody(),
      responses: { 204: c.noBody(), ...merchantErrors },
    },
    summary: {
      method: 'GET',
      path: '/dashboard/summary',
      summary: "The overview's figures for a range of days",
      description:
        "Received amounts (per network and token, and in each quote currency at the order's own rate), orders created and paid, orders by status, and the same per day, for the days `from`..`to` in `timeZone`. With `by=member`, also each member's orders and what they received (`byMember`).",
      metadata: merchantAuth('orders:read', 'exports:read'),
      query: ZSummaryQuery,
      responses: { 200: ZDashboardSummary, ...merchantErrors },
    },
    mySales: {
      method: 'GET',
      path: '/dashboard/sales/mine',
      summary: "The signed-in member's own sales for a range of days",
      description:
        "The orders the member created in the days `from`..`to` in `timeZone` (for an API key, its maker's): counted, and what the paid ones received per token and in their quote currency, however many there are. The point of sale's sales of the day; every role may read its own (the account's figures are GET /dashboard/summary).",
      metadata: merchantAuth('orders:read', 'orders:read'),
      query: ZDateRangeQuery,
      responses: { 200: ZMemberSales, ...merchantErrors },
    },
    exportOrders: {
      method: 'GET',
      path: '/dashboard/exports/orders.csv',
      summary: 'CSV of the orders created in a range of days (streamed)',
      description:
        "One row per order, oldest first: reference, created and paid times, status, network, token, amount, fiat quote and rate, received, refunded, description, the transaction ids and senders of its payments (`network` and `token` are the order's first payment option's). With `network`, the orders on that network, as the order list's filter finds them. RFC 4180, UTF-8, times in ISO-8601 UTC.",
      metadata: merchantAuth('orders:read', 'exports:read'),
      query: ZOrdersExportQuery,
      responses: {
        200: c.otherResponse({ contentType: 'text/csv; charset=utf-8', body: ZCsvStream }),
        ...merchantErrors,
      },
    },
    exportPayments: {
      method: 'GET',
      path: '/dashboard/exports/payments.csv',
      summary: 'CSV of the payments ledger for a range of days (streamed)',
      description:
        "One row per credited payment (`direction` IN) and per confirmed payout item (OUT), oldest first: when it was recorded, the order, network, token, amount, transaction id, sender, how it was matched, the order's fiat quote and rate; for an outflow the paying wallet as sender, the `recipient`, `payout_id` and the item's `payout_reference`. RFC 4180, UTF-8, times in ISO-8601 UTC.",
      metadata: merchantAuth('orders:read', 'exports:read'),
      query: ZDateRangeQuery,
      responses: {
        200: c.otherResponse({ contentType: 'text/csv; charset=utf-8', body: ZCsvStream }),
        ...merchantErrors,
      },
    },
  },
  { strictStatusCodes: true },
);

export type DashboardSession = z.infer<typeof ZDashboardSession>;
export type DashboardSummary = z.infer<typeof ZDashboardSummary>;
export type DateRangeQuery = z.infer<typeof ZDateRangeQuery>;
export type SummaryQuery = z.infer<typeof ZSummaryQuery>;
export type OrdersExportQuery = z.infer<typeof ZOrdersExportQuery>;
