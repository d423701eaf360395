import type { Transaction } from 'sequelize';
import type { Deps } from '../deps';
import { auditActor, type Caller } from '../events/actor';

/** Who acted on a payout: a caller (the member, with the API key it used), or the service's verifier (null). */
export type PayoutActor = Caller | null;

export type PayoutAuditKind =
  | 'payout.created'
  | 'payout.approval_given'
  | 'payout.approved'
  | 'payout.canceled'
  | 'payout.transaction_reported'
  | 'payout.item_confirmed'
  | 'payout.item_failed'
  | 'payout.settled';

/** Appends to a payout's trail, in the caller's transaction so it commits with the change. */
export async function recordPayoutAudit(
  deps: Pick<Deps, 'db'>,
  transaction: Transaction,
  entry: { payoutId: string; type: PayoutAuditKind; actor: PayoutActor; data?: Record<string, unknown> },
  at: Date,
) {
  await deps.db.sequelize.query(
    `INSERT INTO payout_audit_entries (payout_id, type, member_id, api_key_id, data, created_at)
     VALUES ($payoutId, $type, $memberId, $apiKeyId, CAST($data AS jsonb), $at)`,
    {
      bind: {
        payoutId: entry.payoutId,
        type: entry.type,
        memberId: entry.actor?.member.id ?? null,
        apiKeyId: entry.actor?.apiKey?.id ?? null,
        data: JSON.stringify({ ...entry.data, ...auditActor(entry.actor ?? 'system').fields }),
        at,
      },
      transaction,
    },
  );
}
