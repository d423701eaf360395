import type { Network, Payout as PayoutBody } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { applyTransition } from '../events/lifecycle';
import { findPayout } from './find-payout';
import { recordPayoutAudit, type PayoutActor } from './payout-audit';
import { PAYOUT_ITEM_LIFECYCLE, PAYOUT_LIFECYCLE } from './payout-lifecycle';
import { presentPayout } from './present-payout';
import { verifyPayout } from './verify-payout';

/**
 * A member reports a transaction sent for the batch: kept for the verifier, the network's PENDING
 * items SENT, the batch SENDING. The report credits nothing: the verifier reads the transaction
 * on chain and confirms only the items it pays exactly from the paying wallet (verify-payout.ts), so
 * a transaction of another account, or one paying something else, confirms nothing. Then the batch
 * is verified at once, as far as the chain is final.
 */
export async function reportPayoutTransaction(
  deps: Deps,
  input: { merchantId: string; id: string; network: Network; txId: string; actor: NonNullable<PayoutActor> },
): Promise<PayoutBody> {
  const chain = deps.chains.find(input.network);
  if (!chain) throw ApiError.field('body.network', `${input.network} is not on at this service`);
  const txId = chain.normalizeTxId(input.txId);
  if (txId === null) throw ApiError.field('body.txId', chain.txIdFormat);
  const id = await deps.db.sequelize.transaction(async (transaction) => {
    const payout = await findPayout(
      deps,
      { id: input.id, merchantId: input.merchantId },
      { transaction, lock: true },
    );
    if (payout.status !== 'APPROVED' && payout.status !== 'SENDING')
      throw ApiError.conflict(
        `The payout is ${payout.status}: transactions are reported once it is APPROVED`,
      );
    const items = await deps.db.models.PayoutItem.findAll({
      where: { payoutId: payout.id, network: input.network },
      transaction,
    });
    if (items.length === 0)
      throw ApiError.field('body.network', `the payout has no item on ${input.network}`);
    await deps.db.sequelize.query(
      `INSERT INTO payout_transactions (payout_id, network, tx_id, created_at) VALUES ($payoutId, $network, $txId, $at)
       ON CONFLICT DO NOTHING`,
      { bind: { payoutId: payout.id, network: input.network, txId, at: deps.clock() }, transaction },
    );
    for (const item of items)
      if (item.status === 'PENDING')
        await applyTransition(deps, transaction, PAYOUT_ITEM_LIFECYCLE, item, {
          cause: 'reported',
          to: 'SENT',
          actor: input.actor,
          extra: payout,
        });
    await recordPayoutAudit(
      deps,
      transaction,
      {
        payoutId: payout.id,
        type: 'payout.transaction_reported',
        actor: input.actor,
        data: { network: input.network, txId },
      },
      deps.clock(),
    );
    if (payout.status === 'APPROVED')
      await applyTransition(deps, transaction, PAYOUT_LIFECYCLE, payout, {
        cause: 'reported',
        to: 'SENDING',
        actor: input.actor,
      });
    return payout.id;
  });
  await verifyPayout(deps, id);
  const payout = await findPayout(deps, { id, merchantId: input.merchantId });
  return presentPayout(deps, payout);
}
