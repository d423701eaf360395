import { randomBytes } from 'node:crypto';

/** A payout id: random, so ids say nothing of another account's batches. */
export const newPayoutId = (): string => `po_${randomBytes(16).toString('hex')}`;
/** A payout item id. */
export const newPayoutItemId = (): string => `pi_${randomBytes(16).toString('hex')}`;
