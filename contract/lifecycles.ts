import { z } from 'zod';

/**
 * Every kind of entry an order's timeline holds, written once: the server writes only these (its
 * lifecycle tables name them), the contract describes them, the dashboard has a label for each (a
 * kind added here without one does not compile).
 */
export const AUDIT_KINDS = [
  'order.created',
  'tx_request.issued',
  'tx.submitted',
  'status.changed',
  'payment.verified',
  'payment.rejected',
  'payment.claimed',
  'refund.created',
  'refund.address_set',
  'refund.approved',
  'refund.succeeded',
  'refund.failed',
  'refund.transaction_rejected',
  'webhook.delivered',
  'webhook.failed',
  'webhook.gave_up',
  'messenger.delivered',
  'messenger.failed',
  'messenger.gave_up',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const ZAuditKind = z
  .enum(AUDIT_KINDS)
  .describe(
    'What happened: order.created, tx_request.issued, tx.submitted (a reported transaction), status.changed (from, to, reason), payment.verified (a credited transfer), payment.rejected, payment.claimed (a report without proof: credits nothing), refund.* (created, address_set, approved, succeeded, failed, transaction_rejected), webhook.* and messenger.* (delivered, failed, gave_up)',
  );
