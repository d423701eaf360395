import type { CreatePayoutBody, Payout as PayoutBody } from '../../contract';
import { formatAmount } from '../../contract/decimal';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { recordCreation } from '../events/lifecycle';
import { newReference } from '../orders/new-reference';
import { checkPayoutItems, type ItemPaths } from './check-payout-items';
import { recordPayoutAudit, type PayoutActor } from './payout-audit';
import { payoutApprovalsOf } from './payout-approvals-of';
import { newPayoutId, newPayoutItemId } from './payout-ids';
import { PAYOUT_LIFECYCLE } from './payout-lifecycle';
import { presentPayout } from './present-payout';

/**
 * Makes a DRAFT batch: every item checked first (one 400 naming each bad field), then the batch and
 * its items written with the `payout.created` event and the trail entry naming the member, together.
 * The approvals it needs are the account's setting when it is made.
 */
export async function createPayout(
  deps: Deps,
  input: {
    merchant: MerchantRow;
    actor: NonNullable<PayoutActor>;
    body: CreatePayoutBody;
    /** How a bad item is named (a CSV's rows: server/payouts/import-payout.ts); `body.items.N` else. */
    paths?: ItemPaths;
  },
): Promise<PayoutBody> {
  const items = checkPayoutItems(deps, input.body.items, input.paths);
  const { models, sequelize } = deps.db;
  return sequelize.transaction(async (transaction) => {
    const now = deps.clock();
    const payout = await models.Payout.create(
      {
        id: newPayoutId(),
        merchantId: input.merchant.id,
        status: 'DRAFT',
        description: input.body.description ?? null,
        createdBy: input.actor.member.id,
        approvalsRequired: await payoutApprovalsOf(deps, input.merchant, transaction),
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
    await models.PayoutItem.bulkCreate(
      items.map((item, position) => ({
        id: newPayoutItemId(),
        payoutId: payout.id,
        position,
        network: item.network,
        token: item.token,
        tokenMint: item.tokenMint,
        decimals: item.decimals,
        toAddress: item.to,
        amountUnits: item.amountUnits,
        tag: newReference(),
        reference: item.reference,
        note: item.note,
        status: 'PENDING' as const,
        createdAt: now,
        updatedAt: now,
      })),
      { transaction },
    );
    await recordPayoutAudit(
      deps,
      transaction,
      {
        payoutId: payout.id,
        type: 'payout.created',
        actor: input.actor,
        data: {
          items: items.length,
          totals: totalsOf(items),
        },
      },
      now,
    );
    await recordCreation(deps, transaction, PAYOUT_LIFECYCLE, payout, {
      cause: 'created',
      actor: input.actor,
    });
    return presentPayout(deps, payout, transaction);
  });
}

/** What the batch sends, per network and token, for the trail. */
function totalsOf(items: ReturnType<typeof checkPayoutItems>): Record<string, string> {
  const sums = new Map<string, { units: bigint; decimals: number }>();
  for (const item of items) {
    const key = `${item.network} ${item.token}`;
    const sum = sums.get(key) ?? { units: 0n, decimals: item.decimals };
    sum.units += item.amountUnits;
    sums.set(key, sum);
  }
  return Object.fromEntries([...sums].map(([key, s]) => [key, formatAmount(s.units, s.decimals)]));
}
