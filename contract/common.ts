import { z } from 'zod';
import { DECIMAL_TEXT, WIRE_DECIMALS } from './decimal';
import { ErrorCode, errorStatus, type ErrorStatus } from './errors';
import {
  EVM_NETWORKS,
  MAX_TOKEN_DECIMALS,
  MIN_TOKEN_DECIMALS,
  TRON_ADDRESS_FORM,
  type EvmNetwork,
} from './network-table';
import type { Permission } from './permissions';

/** Solana, the EVM networks of contract/network-table.ts, then TRON (on or off by configuration). */
export const NETWORKS = ['SOLANA', ...EVM_NETWORKS, 'TRON'] as ['SOLANA', ...EvmNetwork[], 'TRON'];
export const TOKENS = ['USDT', 'USDC'] as const;
export const ORDER_STATUSES = ['PENDING', 'CONFIRMING', 'PAID', 'UNDERPAID', 'EXPIRED'] as const;

export const ZNetwork = z.enum(NETWORKS).describe('Blockchain network');
export const ZToken = z.enum(TOKENS).describe('Stablecoin');
export const ZOrderStatus = z.enum(ORDER_STATUSES);
export type Network = z.infer<typeof ZNetwork>;
export type Token = z.infer<typeof ZToken>;
export type OrderStatus = z.infer<typeof ZOrderStatus>;
/** `order`: made through the API, a subscription or the dashboard; `x402`: a payment per API call (x402). */
export const ORDER_KINDS = ['order', 'x402'] as const;
export const ZOrderKind = z
  .enum(ORDER_KINDS)
  .describe('`order`, or `x402`: a payment per API call settled by this service as x402 facilitator');
export type OrderKind = z.infer<typeof ZOrderKind>;

/** A positive decimal string with at most WIRE_DECIMALS (6) places: never a JSON number. */
export const ZDecimalAmount = z
  .string()
  .max(40)
  .regex(
    new RegExp(`^(0|[1-9]\\d{0,11})(\\.\\d{1,${WIRE_DECIMALS}})?$`),
    `must be a decimal string with at most ${WIRE_DECIMALS} decimal places, e.g. "12.5"`,
  )
  .refine((v) => !/^0(\.0+)?$/.test(v), 'must be greater than zero');

/** A decimal string as the server writes it (may be zero): room for any sum of uint256 amounts. */
export const ZDecimalOut = z.string().max(100).regex(DECIMAL_TEXT);
/** A token's base-unit decimals: an amount of it has at most this many places. */
export const ZTokenDecimals = z.number().int().min(MIN_TOKEN_DECIMALS).max(MAX_TOKEN_DECIMALS);
export const ZDateTime = z.string().max(40).datetime({ offset: true }).describe('ISO-8601 UTC time');
export const ZFiatCurrency = z
  .string()
  .max(3)
  .regex(/^[A-Z]{3}$/, 'three upper-case letters, e.g. BRL');

/** Bounds of text the API takes and gives back (a longer input is a 400). */
export const URL_MAX = 2048;
export const TX_ID_MAX = 200;
export const ADDRESS_MAX = 100;
export const DESCRIPTION_MAX = 200;
/** A wallet payment URI: a Solana Pay link carries the merchant name and description, URL-encoded. */
export const PAYMENT_URI_MAX = 4096;

/** A URL the service gives (built from PUBLIC_BASE_URL, or one the merchant gave). */
export const ZUrlOut = z.string().max(URL_MAX).url();
/**
 * A wallet address or token contract, as stored: Solana base58 (32 bytes), EVM 0x and 40 hex
 * digits, TRON base58check (`T…`, 34 characters).
 */
export const ZAddress = z
  .string()
  .max(ADDRESS_MAX)
  .regex(/^([1-9A-HJ-NP-Za-km-z]{32,44}|0x[0-9a-fA-F]{40})$/);
/** A transaction id: a Solana signature (base58), an EVM hash (0x hex) or a TRON id (64 hex). */
export const ZTxId = z.string().max(TX_ID_MAX);
/** A wallet payment URI (Solana Pay, EIP-681, or TRON's `tron:<address>?amount=`). */
export const ZPaymentUri = z
  .string()
  .max(PAYMENT_URI_MAX)
  .regex(/^(solana|ethereum|tron):/);
/** What a QR code encodes: the payment URI, or on TRON the bare receiving address (what every TRON wallet scans). */
export const ZQrData = z
  .string()
  .max(PAYMENT_URI_MAX)
  // A payment URI, or TRON's bare address (the one content every TRON wallet scans).
  .regex(new RegExp(`^((solana|ethereum|tron):|${TRON_ADDRESS_FORM.source.slice(1)})`));

/**
 * A binary body (an image) of at most `max` bytes. The bound rides along as `maxBytes` for the
 * OpenAPI document, which says it as the body's maxLength.
 */
export function zBytes(max: number, what: string) {
  return Object.assign(
    z.custom<Uint8Array>((v) => v instanceof Uint8Array && v.length <= max, `${what}, at most ${max} bytes`),
    { maxBytes: max },
  );
}

/**
 * Whether the YYYY-MM-DD a value starts with is a day of the calendar, in `fromYear` or later
 * (zod's date and datetime checks take 2026-02-30).
 */
export function isCalendarDate(value: string, fromYear: number): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  return year >= fromYear && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}

/** The Solana public key (base58) that identifies an order everywhere. */
export const ZReference = z
  .string()
  .max(44)
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be an order reference');

/**
 * Bounds of an error body: messages may quote the request (an unknown field's name, a bad value),
 * so the server cuts them to these lengths, and lists at most ERROR_DETAILS_MAX problems.
 */
export const ERROR_MESSAGE_MAX = 1000;
export const ERROR_PATH_MAX = 200;
export const ERROR_DETAILS_MAX = 50;

export const ZErrorDetail = z.object({
  path: z.string().max(ERROR_PATH_MAX).describe('Where the problem is, e.g. body.amount or query.per_page'),
  message: z.string().max(ERROR_MESSAGE_MAX),
});
export const ZErrorBody = z
  .object({
    error: z.object({
      code: z
        .nativeEnum(ErrorCode)
        .describe('Stable, machine-readable; the HTTP status follows from it (see the API description)'),
      message: z.string().max(ERROR_MESSAGE_MAX).describe('For people; may change'),
      details: z
        .array(ZErrorDetail)
        .max(ERROR_DETAILS_MAX)
        .optional()
        .describe(`For VALIDATION_ERROR: each bad field (the first ${ERROR_DETAILS_MAX})`),
    }),
  })
  .describe('The one error body of every failed request');
export type ErrorBody = z.infer<typeof ZErrorBody>;

/** Error responses of a route, spread into its `responses` so they reach OpenAPI and the SDK. */
export function errors<const C extends ErrorCode>(...codes: C[]) {
  // 400: any request may be malformed (a body that is not JSON, say), whatever the route takes.
  const all = [
    ...new Set<ErrorCode>([
      ErrorCode.VALIDATION_ERROR,
      ErrorCode.RATE_LIMITED,
      ErrorCode.INTERNAL_ERROR,
      ...codes,
    ]),
  ];
  // 503: the database cannot be reached (UPSTREAM_UNAVAILABLE with Retry-After), on every route.
  return {
    ...Object.fromEntries(all.map((code) => [errorStatus[code], ZErrorBody])),
    503: ZErrorBody.describe('The database cannot be reached (UPSTREAM_UNAVAILABLE, with Retry-After)'),
  } as {
    [
      K in (typeof errorStatus)[C | 'VALIDATION_ERROR' | 'RATE_LIMITED' | 'INTERNAL_ERROR'] | 503
    ]: typeof ZErrorBody;
  };
}
export type { ErrorStatus };

/**
 * What an API key may be allowed to do. A key opens the merchant routes whose scope it holds; the
 * login token opens every merchant route.
 */
export const API_KEY_SCOPES = [
  'orders:read',
  'orders:write',
  'refunds:write',
  'account:read',
  'account:write',
  'subscriptions:read',
  'subscriptions:write',
  'x402:settle',
  'payouts:read',
  'payouts:write',
  'payouts:approve',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * Route metadata read by the server's auth middleware and the OpenAPI security mapper: a merchant
 * route names the permission a member needs for it (contract/permissions.ts) and the scope an API
 * key needs for it. Neither may be left out: a route cannot be declared without its permission.
 */
export const merchantAuth = <const S extends ApiKeyScope, const P extends Permission>(
  scope: S,
  permission: P,
) => ({ auth: 'merchant', scope, permission }) as const;
/**
 * Merchant routes that only a member's own sign-in opens (login token or dashboard session: key
 * management, the password, members), never an API key; `permission` is what the member needs.
 */
export const loginOnly = <const P extends Permission>(permission: P) =>
  ({ auth: 'merchant', scope: null, permission }) as const;
/**
 * Merchant routes that only an API key with `scope` opens, never a member's sign-in (login token
 * or dashboard session): server-to-server calls such as x402's facilitator, whose caller is a
 * paid API, not a person; `permission` is what the key's maker needs.
 */
export const apiKeyOnly = <const S extends ApiKeyScope, const P extends Permission>(
  scope: S,
  permission: P,
) => ({ auth: 'merchant', scope, permission, apiKeyOnly: true }) as const;
export const publicRoute = { auth: 'public' } as const;
/** The auth metadata of a route, as the contract declares it. */
export type MerchantRouteAuth = {
  auth: 'merchant';
  scope: ApiKeyScope | null;
  permission: Permission;
  /**
   * Body fields that need a permission of their own instead of the route's (permissionsNeeded in
   * ./permissions.ts): a member may change the fields its role covers and no other.
   */
  fieldPermissions?: Readonly<Record<string, Permission>>;
  /** The route also takes a two-factor setupToken (contract/two-factor.ts): enrolment alone. */
  setupToken?: true;
  /** Only an API key opens the route (apiKeyOnly), never the login token or a session. */
  apiKeyOnly?: true;
};
export type RouteAuth = MerchantRouteAuth | typeof publicRoute;
