import type { OrderStatus } from '../../contract';

/** Orders awaiting payment: the expiry job moves them to EXPIRED at expiresAt. */
export const EXPIRABLE_STATUSES = ['PENDING', 'UNDERPAID'] as const satisfies readonly OrderStatus[];

/**
 * Orders the expiry job reads (migration 0025's index): those awaiting payment, and CONFIRMING
 * ones, expired unless a claim holds them (HOLDS_PAST_EXPIRY_SQL). An order still open.
 */
export const OPEN_ORDER_STATUSES = [
  ...EXPIRABLE_STATUSES,
  'CONFIRMING',
] as const satisfies readonly OrderStatus[];

/**
 * Which open claims keep an order waiting (CONFIRMING) past its expiry: all but a payer's unsigned
 * report. Anyone with an order's link may report a transaction id without proof, made up or not;
 * were that enough to hold an order, it would never expire, nor a subscription's period go past
 * due. Such a report is still checked until its deadline, and a transfer it names that turns up is
 * credited, paid late. SQL over payment_claims' columns, the one statement of the rule.
 */
export const HOLDS_PAST_EXPIRY_SQL = `NOT (source = 'payer' AND proof_signature IS NULL)`;
