import type { OrderStatus } from '../../contract';

/** Orders the expiry job moves to EXPIRED at expiresAt. */
export const EXPIRABLE_STATUSES = ['PENDING', 'UNDERPAID'] as const satisfies readonly OrderStatus[];
