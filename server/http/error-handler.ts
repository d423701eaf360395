import type { ErrorRequestHandler, RequestHandler } from 'express';
import { RequestValidationError } from '@ts-rest/express';
import type { ZodError } from 'zod';
import { ErrorCode } from '../../contract';
import { ChainUnavailableError, NetworkOffError, PayerAccountError } from '../chains/chain-errors';
import { isDatabaseUnavailable } from '../db/is-database-unavailable';
import { ApiError, zodDetails, type ErrorDetail } from '../errors';
import type { Logger } from '../lib/logger';

/** ts-rest's request validation failure -> VALIDATION_ERROR with one detail per problem. */
export function fromRequestValidation(err: RequestValidationError): ApiError {
  const parts: [string, ZodError | null][] = [
    ['params', err.pathParams],
    ['headers', err.headers],
    ['query', err.query],
    ['body', err.body],
  ];
  const details: ErrorDetail[] = parts.flatMap(([where, e]) => (e ? zodDetails(e, where) : []));
  const first = details[0];
  const message = first ? `${first.path}: ${first.message}` : 'Invalid request';
  return ApiError.validation(
    details.length > 1 ? `${message} (and ${details.length - 1} more)` : message,
    details,
  );
}

/** Errors thrown by body-parser and the router carry a status and a type. */
function fromHttpError(err: { status?: unknown; statusCode?: unknown; type?: unknown }): ApiError | null {
  const status = err.status ?? err.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  if (err.type === 'entity.too.large' || status === 413)
    return new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, 'Request body is larger than 100 KB');
  if (err.type === 'entity.parse.failed') return ApiError.validation('Malformed JSON body');
  if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported')
    return ApiError.validation('Unsupported body encoding or charset');
  return ApiError.validation('Malformed request');
}

/** Where a transaction request carries the payer's account: GET's query or the POST body. */
export type AccountPath = 'query.account' | 'body.account';

/**
 * Runs a chain build that checks an account; a PayerAccountError it throws becomes a validation
 * error at `path`, where the request gave the account. Only the service knows that place, so it
 * calls this; toApiError does not guess one.
 */
export async function blamingAccountField<T>(path: AccountPath, build: () => Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (error) {
    if (error instanceof PayerAccountError) throw ApiError.field(path, error.message);
    throw error;
  }
}

export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof ChainUnavailableError) return ApiError.upstream(err.message);
  if (err instanceof NetworkOffError) return ApiError.validation(err.message);
  if (isDatabaseUnavailable(err)) return ApiError.databaseUnavailable();
  if (err instanceof RequestValidationError) return fromRequestValidation(err);
  if (err && typeof err === 'object') return fromHttpError(err);
  return null;
}

/** The transaction-request paths (payments, refunds); case-insensitive, as Express routes are. */
const SOLANA_PAY_PATH = /^\/pay\/(tx-request(\/|$)|refunds\/[^/]+\/tx-request\/?$)/i;

/** The last handler: every failure leaves as the one error body; 500s say nothing of internals. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    let apiError = toApiError(err);
    if (!apiError) {
      logger.error({ err, reqId: req.id }, 'unhandled error');
      apiError = new ApiError(ErrorCode.INTERNAL_ERROR, 'Internal server error');
    }
    for (const [name, value] of Object.entries(apiError.headers ?? {})) res.setHeader(name, value);
    const body = apiError.toBody();
    // Solana Pay wallets read a top-level `message` on the transaction-request path.
    const payload = SOLANA_PAY_PATH.test(req.path) ? { ...body, message: apiError.message } : body;
    res.status(apiError.status).json(payload);
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(ApiError.notFound(`Route ${req.method} ${req.path}`));
};
