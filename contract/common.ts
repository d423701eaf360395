import { z } from 'zod';
import { ErrorCode, errorStatus, type ErrorStatus } from './errors';

export const NETWORKS = ['SOLANA', 'POLYGON', 'ETHEREUM'] as const;
export const TOKENS = ['USDT', 'USDC'] as const;
export const ORDER_STATUSES = ['PENDING', 'CONFIRMING', 'PAID', 'UNDERPAID', 'EXPIRED'] as const;

export const ZNetwork = z.enum(NETWORKS).describe('Blockchain network');
export const ZToken = z.enum(TOKENS).describe('Stablecoin');
export const ZOrderStatus = z.enum(ORDER_STATUSES);
export type Network = z.infer<typeof ZNetwork>;
export type Token = z.infer<typeof ZToken>;
export type OrderStatus = z.infer<typeof ZOrderStatus>;

/** A positive decimal string with at most 6 decimal places: never a JSON number. */
export const ZDecimalAmount = z
  .string()
  .max(40)
  .regex(
    /^(0|[1-9]\d{0,11})(\.\d{1,6})?$/,
    'must be a decimal string with at most 6 decimal places, e.g. "12.5"',
  )
  .refine((v) => !/^0(\.0+)?$/.test(v), 'must be greater than zero');

/** A decimal string as the server writes it (may be zero). */
export const ZDecimalOut = z.string().regex(/^\d+(\.\d+)?$/);
export const ZDateTime = z.string().datetime({ offset: true }).describe('ISO-8601 UTC time');
export const ZFiatCurrency = z
  .string()
  .max(3)
  .regex(/^[A-Z]{3}$/, 'three upper-case letters, e.g. BRL');

/** The Solana public key (base58) that identifies an order everywhere. */
export const ZReference = z
  .string()
  .max(44)
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be an order reference');

export const ZErrorDetail = z.object({
  path: z.string().describe('Where the problem is, e.g. body.amount or query.per_page'),
  message: z.string(),
});
export const ZErrorBody = z
  .object({
    error: z.object({
      code: z
        .nativeEnum(ErrorCode)
        .describe('Stable, machine-readable; the HTTP status follows from it (see the API description)'),
      message: z.string().describe('For people; may change'),
      details: z.array(ZErrorDetail).optional().describe('For VALIDATION_ERROR: each bad field'),
    }),
  })
  .describe('The one error body of every failed request');
export type ErrorBody = z.infer<typeof ZErrorBody>;

/** Error responses of a route, spread into its `responses` so they reach OpenAPI and the SDK. */
export function errors<const C extends ErrorCode>(...codes: C[]) {
  const all = [...new Set<ErrorCode>([ErrorCode.RATE_LIMITED, ErrorCode.INTERNAL_ERROR, ...codes])];
  // 503: the database cannot be reached (UPSTREAM_UNAVAILABLE with Retry-After), on every route.
  return {
    ...Object.fromEntries(all.map((code) => [errorStatus[code], ZErrorBody])),
    503: ZErrorBody.describe('The database cannot be reached (UPSTREAM_UNAVAILABLE, with Retry-After)'),
  } as {
    [K in (typeof errorStatus)[C | 'RATE_LIMITED' | 'INTERNAL_ERROR'] | 503]: typeof ZErrorBody;
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
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * Route metadata read by the server's auth middleware and the OpenAPI security mapper: a merchant
 * route names the scope an API key needs for it.
 */
export const merchantAuth = <const S extends ApiKeyScope>(scope: S) => ({ auth: 'merchant', scope }) as const;
/** Merchant routes that only the login token opens (key management, the password): never an API key. */
export const loginOnly = { auth: 'merchant', scope: null } as const;
export const publicRoute = { auth: 'public' } as const;
/** The auth metadata of a route, as the contract declares it. */
export type RouteAuth = ReturnType<typeof merchantAuth> | typeof loginOnly | typeof publicRoute;
