import type { ZodError } from 'zod';
import { ErrorCode, errorStatus, type ErrorBody } from '../contract';

export type ErrorDetail = { path: string; message: string };

/** What a client is told to wait when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The one error type of the service; the error handler turns it into the one error body. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    status?: number,
  ) {
    super(message);
    this.status = status ?? errorStatus[code];
  }

  toBody(): ErrorBody {
    return {
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }

  static validation(message: string, details?: ErrorDetail[]) {
    return new ApiError(ErrorCode.VALIDATION_ERROR, message, details);
  }
  static field(path: string, message: string) {
    return new ApiError(ErrorCode.VALIDATION_ERROR, `${path}: ${message}`, [{ path, message }]);
  }
  static unauthenticated(message = 'Authentication required: send Authorization: Bearer <token>') {
    return new ApiError(ErrorCode.UNAUTHENTICATED, message);
  }
  static notFound(what: string) {
    return new ApiError(ErrorCode.NOT_FOUND, `${what} not found`);
  }
  static conflict(message: string) {
    return new ApiError(ErrorCode.CONFLICT, message);
  }
  static upstream(message: string) {
    return new ApiError(ErrorCode.UPSTREAM_UNAVAILABLE, message);
  }
  /** The database cannot be reached: a 503 the client may retry (a chain or feed outage is a 502). */
  static databaseUnavailable(retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS) {
    return new ApiError(
      ErrorCode.UPSTREAM_UNAVAILABLE,
      'The database cannot be reached right now: try again shortly. An order or refund being created may or may not have been: repeat the request with the same Idempotency-Key and it is created once',
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
      503,
    );
  }
}

export function zodDetails(error: ZodError, prefix?: string): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path].filter((p) => p !== undefined && p !== '').join('.') || (prefix ?? ''),
    message: issue.message,
  }));
}
