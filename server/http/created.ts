import type { Response } from 'express';

/**
 * The 201 answer of an idempotent creation: the thing made, or made before under the same
 * Idempotency-Key and body, then said so with `Idempotent-Replayed: true`.
 */
export function created<B>(res: Response, result: { body: B; replayed: boolean }) {
  if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
  return { status: 201 as const, body: result.body };
}
