import { ErrorCode, errorStatus, type ErrorCode as Code } from '../../contract';
import { ACCOUNT_OPERATION_EXAMPLES } from './examples/account-operations';
import { MONEY_OPERATION_EXAMPLES } from './examples/money-operations';
import { PAYOUT_BATCH_EXAMPLES } from './examples/payout-batch-examples';
import type { OperationExamples } from './examples/more-fixtures';

export { WEBHOOK_EXAMPLES } from './examples/webhook-examples';
export type { OperationExamples } from './examples/more-fixtures';

/**
 * Examples for the API reference, by operation (`<router>.<route>`). A test parses each one with
 * the contract's own schema, so they cannot drift from what the API really sends.
 */
export const OPERATION_EXAMPLES: Record<string, OperationExamples> = {
  ...ACCOUNT_OPERATION_EXAMPLES,
  ...MONEY_OPERATION_EXAMPLES,
  ...PAYOUT_BATCH_EXAMPLES,
};

const ERROR_EXAMPLES: Record<Code, { message: string; details?: { path: string; message: string }[] }> = {
  VALIDATION_ERROR: {
    message: 'body.amount: must be a decimal string with at most 6 decimal places, e.g. "12.5"',
    details: [
      { path: 'body.amount', message: 'must be a decimal string with at most 6 decimal places, e.g. "12.5"' },
    ],
  },
  UNAUTHENTICATED: { message: 'Invalid token' },
  FORBIDDEN: { message: 'This API key lacks the scope orders:write' },
  NOT_CONFIGURED: { message: 'x402 on EVM networks is not configured: set X402_EVM_PRIVATE_KEY' },
  NOT_FOUND: { message: 'Order not found' },
  CONFLICT: { message: 'This transaction was already submitted for another order' },
  GONE: { message: 'This invitation was already used' },
  PAYLOAD_TOO_LARGE: { message: 'Request body is larger than 100 KB' },
  RATE_LIMITED: { message: 'Too many requests: slow down' },
  INTERNAL_ERROR: { message: 'Internal server error' },
  UPSTREAM_UNAVAILABLE: { message: 'Solana RPC unavailable: getLatestBlockhash failed (timed out)' },
};

/** The error body example for an HTTP status of the error table (503: the database is unreachable). */
export function errorExample(status: number) {
  if (status === 503)
    return {
      error: {
        code: ErrorCode.UPSTREAM_UNAVAILABLE,
        message:
          'The database cannot be reached right now: try again shortly. An order or refund being created may or may not have been: repeat the request with the same Idempotency-Key and it is created once',
      },
    };
  const code = (Object.keys(errorStatus) as Code[]).find((c) => errorStatus[c] === status);
  if (!code) return undefined;
  return { error: { code: ErrorCode[code], ...ERROR_EXAMPLES[code] } };
}
