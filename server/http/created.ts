import type { Response } from 'express';
import { callerOf, currentMerchant } from './current-merchant';

/**
 * The 201 answer of an idempotent creation: the thing made, or made before under the same
 * Idempotency-Key and body, then said so with `Idempotent-Replayed: true`.
 */
export function created<B>(res: Response, result: { body: B; replayed: boolean }) {
  if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
  return { status: 201 as const, body: result.body };
}

/** What an idempotent creation takes from its request: the merchant, who acts, the body and the Idempotency-Key. */
export function creation<B>(req: { user?: Express.User }, body: B, headers: { 'idempotency-key'?: string }) {
  return {
    merchant: currentMerchant(req),
    by: callerOf(req),
    body,
    idempotencyKey: headers['idempotency-key'],
  };
}
