import { randomBytes } from 'node:crypto';

/** A refund id: random, as it opens a public page where the payer gives an address. */
export function newRefundId(): string {
  return `rf_${randomBytes(16).toString('hex')}`;
}
