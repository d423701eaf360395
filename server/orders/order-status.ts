import type { OrderStatus } from '../../contract';

/** Orders that can still receive a payment that counts toward them. */
export const OPEN_STATUSES = ['PENDING', 'CONFIRMING', 'UNDERPAID'] as const satisfies readonly OrderStatus[];
/** Orders the expiry job moves to EXPIRED at expiresAt. */
export const EXPIRABLE_STATUSES = ['PENDING', 'UNDERPAID'] as const satisfies readonly OrderStatus[];
