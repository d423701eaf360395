import type { ZodError } from 'zod';
import {
  ERROR_DETAILS_MAX,
  ERROR_MESSAGE_MAX,
  ERROR_PATH_MAX,
  ErrorCode,
  errorStatus,
  type ErrorBody,
} from '../contract';

export type ErrorDetail = { path: string; message: string };

/** What a client is told to wait when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** At most `max` UTF-16 units (what JSON Schema's maxLength counts), ending with … when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--; // never half a surrogate pair
  return `${text.slice(0, end)}…`;
}

/**
 * The one error type of the service; the error handler turns it into the one error body. Messages
 * may quote the request (a field's name, a bad value): they are cut to the contract's bounds.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly details?: ErrorDetail[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    status?: number,
  ) {
    super(clip(message, ERROR_MESSAGE_MAX));
    this.status = status ?? errorStatus[code];
    this.details = details?.slice(0, ERROR_DETAILS_MAX).map((d) => ({
      path: clip(d.path, ERROR_PATH_MAX),
      message: clip(d.message, ERROR_MESSAGE_MAX),
    }));
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
  /** An API key without the scope the route needs, or on a route only the login token opens. */
  static forbidden(message: string) {
    return new ApiError(ErrorCode.FORBIDDEN, message);
  }
  static notFound(what: string) {
    return new ApiError(ErrorCode.NOT_FOUND, `${what} not found`);
  }
  static conflict(message: string) {
    return new ApiError(ErrorCode.CONFLICT, message);
  }
  /** A link that worked once and no more (an invitation used, revoked or expired). */
  static gone(message: string) {
    return new ApiError(ErrorCode.GONE, message);
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
