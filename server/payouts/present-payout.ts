import { QueryTypes, type Transaction } from 'sequelize';
import type { Payout as PayoutBody, PayoutItem as PayoutItemBody, PayoutSummary } from '../../contract';
import { formatAmount } from '../../contract/decimal';
import type { Payout, PayoutItem } from '../db/models';
import type { Deps } from '../deps';

export const presentPayoutItem = (item: PayoutItem): PayoutItemBody => ({
  id: item.id,
  network: item.network,
  token: item.token,
  decimals: item.decimals,
  to: item.toAddress,
  amount: formatAmount(item.amountUnits, item.decimals),
  reference: item.reference,
  note: item.note,
  status: item.status,
  txId: item.txId ?? null,
  failureReason: item.failureReason ?? null,
  confirmedAt: item.confirmedAt?.toISOString() ?? null,
});

type Approval = { memberId: string; at: Date };

/** The batch without its items, with its approvals and item count read in one statement. */
export async function presentPayoutSummaries(
  deps: Pick<Deps, 'db'>,
  payouts: Payout[],
  transaction?: Transaction,
): Promise<PayoutSummary[]> {
  if (payouts.length === 0) return [];
  const rows = await deps.db.sequelize.query<{ payout_id: string; approvals: Approval[]; items: string }>(
    `SELECT p.id AS payout_id,
            COALESCE((SELECT json_agg(json_build_object('memberId', a.member_id, 'at', a.created_at) ORDER BY a.created_at)
                        FROM payout_approvals a WHERE a.payout_id = p.id), '[]') AS approvals,
            (SELECT count(*) FROM payout_items i WHERE i.payout_id = p.id) AS items
       FROM payouts p WHERE p.id IN (:ids)`,
    { type: QueryTypes.SELECT, replacements: { ids: payouts.map((p) => p.id) }, transaction },
  );
  const byId = new Map(rows.map((r) => [r.payout_id, r]));
  return payouts.map((p) => {
    const row = byId.get(p.id);
    return {
      id: p.id,
      status: p.status,
      description: p.description,
      itemCount: Number(row?.items ?? 0),
      createdBy: p.createdBy,
      approvalsRequired: p.approvalsRequired,
      approvals: (row?.approvals ?? []).map((a) => ({
        memberId: a.memberId,
        at: new Date(a.at).toISOString(),
      })),
      approvedAt: p.approvedAt?.toISOString() ?? null,
      deadlineAt: p.deadlineAt?.toISOString() ?? null,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    };
  });
}

/** The batch with its items, in their order. */
export async function presentPayout(
  deps: Pick<Deps, 'db'>,
  payout: Payout,
  transaction?: Transaction,
): Promise<PayoutBody> {
  const [summary] = await presentPayoutSummaries(deps, [payout], transaction);
  const items = await deps.db.models.PayoutItem.findAll({
    where: { payoutId: payout.id },
    order: [['position', 'ASC']],
    transaction,
  });
  return { ...summary!, items: items.map(presentPayoutItem) };
}
