import type { ErrorBody, ErrorCode } from '../../contract';

/** Codes of failures that have no HTTP answer behind them (raised by the SDK itself). */
export type SdkErrorCode =
  | 'CONNECTION_ERROR'
  | 'UNEXPECTED_RESPONSE'
  | 'WEBHOOK_SIGNATURE_INVALID'
  | 'SOLANA_PAYMENT_FAILED'
  | 'EVM_PAYMENT_FAILED'
  | 'EVM_REQUEST_REJECTED'
  | 'EVM_CHAIN_NOT_ADDED'
  | 'INVALID_PAY_URL'
  | 'REFUND_SEND_FAILED';

export type StablepayErrorCode = ErrorCode | SdkErrorCode;
export type ErrorDetail = NonNullable<ErrorBody['error']['details']>[number];

export type StablepayErrorInit = {
  message: string;
  code: StablepayErrorCode;
  /** HTTP status; undefined when no answer was received. */
  status?: number;
  details?: ErrorDetail[];
  requestId?: string;
  headers?: Headers;
  /** The parsed answer, as received. */
  body?: unknown;
  cause?: unknown;
};

/**
 * Brands that make `instanceof` work across copies of this module: the ESM and the CJS build of
 * the SDK loaded in one process (the "dual package hazard") each have their own classes.
 */
const BRAND = Symbol.for('@stablepay/sdk/error-kinds');

type Branded = { [BRAND]?: readonly string[] };

/** Base of every error the SDK throws. */
export class StablepayError extends Error {
  /** Stable class identifier, used by the cross-copy `instanceof`. */
  static readonly kind: string = 'StablepayError';

  readonly code: StablepayErrorCode;
  readonly status: number | undefined;
  readonly details: ErrorDetail[];
  /** The server's X-Request-Id (quote it when reporting a problem). */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;
  readonly body: unknown;

  constructor(init: StablepayErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    const kinds: string[] = [];
    for (let c = new.target as unknown; typeof c === 'function'; c = Object.getPrototypeOf(c)) {
      const kind = (c as { kind?: unknown }).kind;
      if (typeof kind === 'string' && Object.prototype.hasOwnProperty.call(c, 'kind')) kinds.push(kind);
    }
    Object.defineProperty(this, BRAND, { value: Object.freeze(kinds), enumerable: false });
    this.name = new.target.kind;
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? [];
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.body = init.body;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    const kinds = (value as Branded)[BRAND];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/** An error the SDK throws whose `code` is always C. */
export type CodedError<C extends StablepayErrorCode> = StablepayError & { readonly code: C };

/** The class of a CodedError: `new`, `instanceof` (across copies of the SDK too) and `kind`. */
export type CodedErrorClass<C extends StablepayErrorCode> = {
  new (init: StablepayErrorInit): CodedError<C>;
  readonly kind: string;
  readonly prototype: CodedError<C>;
};

/**
 * The class of the errors with one code and nothing else of their own (`code` is given by the answer
 * as for every StablepayError: the class only narrows its type).
 */
function codedError<C extends StablepayErrorCode>(kind: string, _code: C): CodedErrorClass<C> {
  const Coded = class extends StablepayError {
    static override readonly kind: string = kind;
  };
  Object.defineProperty(Coded, 'name', { value: kind });
  return Coded as unknown as CodedErrorClass<C>;
}

/** 400 VALIDATION_ERROR: `details` names each bad field (`body.amount`, `query.per_page`, ...). */
export const ValidationError = codedError('ValidationError', 'VALIDATION_ERROR');
export type ValidationError = CodedError<'VALIDATION_ERROR'>;

/** 401 UNAUTHENTICATED: missing, expired or revoked token; wrong e-mail or password. */
export const AuthenticationError = codedError('AuthenticationError', 'UNAUTHENTICATED');
export type AuthenticationError = CodedError<'UNAUTHENTICATED'>;

/**
 * 403 FORBIDDEN: an API key without the scope the route needs (the message names it), or an API key
 * on a route only the login token opens (API keys, the password).
 */
export const ForbiddenError = codedError('ForbiddenError', 'FORBIDDEN');
export type ForbiddenError = CodedError<'FORBIDDEN'>;

/** 404 NOT_FOUND: unknown (or another merchant's) order, wallet or route. */
export const NotFoundError = codedError('NotFoundError', 'NOT_FOUND');
export type NotFoundError = CodedError<'NOT_FOUND'>;

/** 409 CONFLICT: duplicate wallet, idempotency key reused with another body, order already paid... */
export const ConflictError = codedError('ConflictError', 'CONFLICT');
export type ConflictError = CodedError<'CONFLICT'>;

/** 410 GONE: a link that worked once and no more (an invitation used, revoked or expired). */
export const GoneError = codedError('GoneError', 'GONE');
export type GoneError = CodedError<'GONE'>;

/** 413 PAYLOAD_TOO_LARGE. */
export const PayloadTooLargeError = codedError('PayloadTooLargeError', 'PAYLOAD_TOO_LARGE');
export type PayloadTooLargeError = CodedError<'PAYLOAD_TOO_LARGE'>;

/** 429 RATE_LIMITED: `retryAfter` is the server's Retry-After in seconds, when given. */
export class RateLimitError extends StablepayError {
  static override readonly kind = 'RateLimitError';
  declare readonly code: 'RATE_LIMITED';
  readonly retryAfter: number | undefined;
  constructor(init: StablepayErrorInit) {
    super(init);
    this.retryAfter = init.headers ? parseRetryAfter(init.headers.get('retry-after')) : undefined;
  }
}

/** 500 INTERNAL_ERROR (and any other 5xx without a known code). */
export const InternalServerError = codedError('InternalServerError', 'INTERNAL_ERROR');
export type InternalServerError = CodedError<'INTERNAL_ERROR'>;

/** 502 UPSTREAM_UNAVAILABLE: the chain RPC or the rate feed could not be reached (also 503/504). */
export const UpstreamUnavailableError = codedError('UpstreamUnavailableError', 'UPSTREAM_UNAVAILABLE');
export type UpstreamUnavailableError = CodedError<'UPSTREAM_UNAVAILABLE'>;

/** 503 NOT_CONFIGURED: the operator has not configured the feature (x402 without its gas key); the message names the variable. */
export const NotConfiguredError = codedError('NotConfiguredError', 'NOT_CONFIGURED');
export type NotConfiguredError = CodedError<'NOT_CONFIGURED'>;

/** No HTTP answer: DNS, refused or reset connection, timeout. `cause` holds the underlying error. */
export const StablepayConnectionError = codedError('StablepayConnectionError', 'CONNECTION_ERROR');
export type StablepayConnectionError = CodedError<'CONNECTION_ERROR'>;

export type WebhookVerificationReason =
  | 'PAYLOAD_NOT_RAW'
  | 'SECRET_MISSING'
  | 'HEADER_MISSING'
  | 'HEADER_MALFORMED'
  | 'NO_MATCHING_SIGNATURE'
  | 'TIMESTAMP_OUT_OF_TOLERANCE'
  | 'PAYLOAD_NOT_JSON';

/** A webhook that must not be trusted; `reason` says exactly why. */
export class WebhookSignatureVerificationError extends StablepayError {
  static override readonly kind = 'WebhookSignatureVerificationError';
  declare readonly code: 'WEBHOOK_SIGNATURE_INVALID';
  readonly reason: WebhookVerificationReason;
  readonly header: string | undefined;
  constructor(reason: WebhookVerificationReason, message: string, header?: string) {
    super({ message, code: 'WEBHOOK_SIGNATURE_INVALID' });
    this.reason = reason;
    this.header = header;
  }
}

/** A Solana payment failed after the transaction may have been sent: `signature` is set then. */
export class SolanaPaymentError extends StablepayError {
  static override readonly kind = 'SolanaPaymentError';
  declare readonly code: 'SOLANA_PAYMENT_FAILED';
  readonly signature: string | undefined;
  constructor(message: string, opts: { signature?: string; cause?: unknown } = {}) {
    super({ message, code: 'SOLANA_PAYMENT_FAILED', cause: opts.cause });
    this.signature = opts.signature;
  }
}

/**
 * A refund could not be signed and sent with the merchant's key (`sendRefund`), or it did not
 * settle in time (`waitForRefund`). `txId` is set when the transaction had been sent.
 */
export class RefundSendError extends StablepayError {
  static override readonly kind = 'RefundSendError';
  declare readonly code: 'REFUND_SEND_FAILED';
  readonly txId: string | undefined;
  constructor(message: string, opts: { txId?: string; cause?: unknown } = {}) {
    super({ message, code: 'REFUND_SEND_FAILED', cause: opts.cause });
    this.txId = opts.txId;
  }
}

/**
 * A Polygon/Ethereum payment through an EIP-1193 wallet failed. `txId` is set when the transaction
 * had been sent (the payment may still land); `providerCode` is the wallet's EIP-1193 error code.
 * The two subclasses below single out what the payer can act on.
 */
export class EvmPaymentError extends StablepayError {
  static override readonly kind: string = 'EvmPaymentError';
  declare readonly code: 'EVM_PAYMENT_FAILED' | 'EVM_REQUEST_REJECTED' | 'EVM_CHAIN_NOT_ADDED';
  readonly txId: string | undefined;
  readonly providerCode: number | undefined;
  constructor(
    message: string,
    opts: {
      txId?: string;
      providerCode?: number;
      cause?: unknown;
      code?: 'EVM_PAYMENT_FAILED' | 'EVM_REQUEST_REJECTED' | 'EVM_CHAIN_NOT_ADDED';
    } = {},
  ) {
    super({ message, code: opts.code ?? 'EVM_PAYMENT_FAILED', cause: opts.cause });
    this.txId = opts.txId;
    this.providerCode = opts.providerCode;
  }
}

/** The wallet's user refused a request (EIP-1193 error 4001): nothing was sent. */
export class EvmRequestRejectedError extends EvmPaymentError {
  static override readonly kind = 'EvmRequestRejectedError';
  declare readonly code: 'EVM_REQUEST_REJECTED';
  declare readonly txId: undefined;
  /** What was refused: 'eth_requestAccounts', 'wallet_switchEthereumChain' or 'eth_sendTransaction'. */
  readonly method: string;
  constructor(method: string, message: string, opts: { cause?: unknown } = {}) {
    super(message, { providerCode: 4001, cause: opts.cause, code: 'EVM_REQUEST_REJECTED' });
    this.method = method;
  }
}

/** The wallet does not know the order's chain (EIP-3326 error 4902): add the network to it first. */
export class EvmChainNotAddedError extends EvmPaymentError {
  static override readonly kind = 'EvmChainNotAddedError';
  declare readonly code: 'EVM_CHAIN_NOT_ADDED';
  declare readonly txId: undefined;
  /** The chain the order is on (137 Polygon, 1 Ethereum, or their testnets). */
  readonly chainId: number;
  constructor(chainId: number, message: string, opts: { cause?: unknown } = {}) {
    super(message, { providerCode: 4902, cause: opts.cause, code: 'EVM_CHAIN_NOT_ADDED' });
    this.chainId = chainId;
  }
}

const BY_CODE: Record<ErrorCode, new (init: StablepayErrorInit) => StablepayError> = {
  VALIDATION_ERROR: ValidationError,
  UNAUTHENTICATED: AuthenticationError,
  FORBIDDEN: ForbiddenError,
  NOT_FOUND: NotFoundError,
  CONFLICT: ConflictError,
  GONE: GoneError,
  PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  RATE_LIMITED: RateLimitError,
  INTERNAL_ERROR: InternalServerError,
  UPSTREAM_UNAVAILABLE: UpstreamUnavailableError,
  NOT_CONFIGURED: NotConfiguredError,
};

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'UPSTREAM_UNAVAILABLE',
  503: 'UPSTREAM_UNAVAILABLE',
  504: 'UPSTREAM_UNAVAILABLE',
};

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(BY_CODE, value);
}

/** The error body's `error` object, when the answer has the API's one error shape. */
function errorOf(body: unknown): { code?: unknown; message?: unknown; details?: unknown } | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null ? error : undefined;
}

function detailsOf(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (d): d is ErrorDetail =>
      typeof d === 'object' &&
      d !== null &&
      typeof (d as ErrorDetail).path === 'string' &&
      typeof (d as ErrorDetail).message === 'string',
  );
}

/**
 * The typed error of a failed answer: by the body's `error.code`, else by the HTTP status (a proxy's
 * 503 page has no code), else a plain StablepayError with code UNEXPECTED_RESPONSE.
 */
export function errorFromResponse(status: number, body: unknown, headers?: Headers): StablepayError {
  const error = errorOf(body);
  const code: ErrorCode | undefined = isErrorCode(error?.code)
    ? error.code
    : (CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : undefined));
  const message =
    typeof error?.message === 'string'
      ? error.message
      : typeof body === 'string' && body.trim() && body.length <= 200
        ? `HTTP ${status}: ${body.trim()}`
        : `HTTP ${status}`;
  const init: StablepayErrorInit = {
    message,
    code: code ?? 'UNEXPECTED_RESPONSE',
    status,
    details: detailsOf(error?.details),
    requestId: headers?.get('x-request-id') ?? undefined,
    headers,
    body,
  };
  const ErrorClass = code ? BY_CODE[code] : StablepayError;
  return new ErrorClass(init);
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
