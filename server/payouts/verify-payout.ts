import { QueryTypes } from 'sequelize';
import type { Network } from '../../contract';
import type { ObservedTransaction } from '../chains/chain-adapter';
import { ChainUnavailableError } from '../chains/chain-errors';
import type { PayoutItem } from '../db/models';
import type { Deps } from '../deps';
import { applyTransition } from '../events/lifecycle';
import { judgeRefund } from '../refunds/judge-refund';
import { batchContractsOf } from './batch-contract-of';
import { judgeBatchItem } from './judge-batch-item';
import { recordPayoutAudit } from './payout-audit';
import { PAYOUT_ITEM_LIFECYCLE, PAYOUT_LIFECYCLE } from './payout-lifecycle';
import { settledStatus } from './settled-status';

type Reported = { network: Network; tx_id: string };

/**
 * Verifies a batch's open items against the transactions reported for it, read on chain at the
 * service's finality (never as reported). Each item is judged like a refund (judge-refund.ts): the
 * transfer of its token from the paying wallet to its address, of exactly its amount, tied to it by
 * its tag or, untagged, by that exact amount on that path after approval. Confirmed when a final
 * one pays it; FAILED at once when a final one that names it pays something else, or when the
 * deadline passes without one. A pay() call of a batch contract is judged by judge-batch-item.ts
 * instead (the account's verified contract only). When no item is open, the batch settles: COMPLETED, PARTIAL or FAILED.
 */
export async function verifyPayout(deps: Deps, payoutId: string): Promise<void> {
  const reported = await deps.db.sequelize.query<Reported>(
    'SELECT network, tx_id FROM payout_transactions WHERE payout_id = :payoutId AND settled_at IS NULL',
    { type: QueryTypes.SELECT, replacements: { payoutId } },
  );
  // Chain reads first, outside the database transaction; an unreachable chain is read next time.
  const observed: { network: Network; tx: ObservedTransaction }[] = [];
  for (const r of reported) {
    try {
      observed.push({
        network: r.network,
        tx: await deps.chains.forChecks(r.network).readTransaction(r.tx_id),
      });
    } catch (error) {
      if (!(error instanceof ChainUnavailableError)) throw error;
    }
  }

  await deps.db.sequelize.transaction(async (transaction) => {
    const payout = await deps.db.models.Payout.findByPk(payoutId, {
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!payout || (payout.status !== 'APPROVED' && payout.status !== 'SENDING')) return;
    const now = deps.clock();
    const open = await deps.db.models.PayoutItem.findAll({
      where: { payoutId, status: ['PENDING', 'SENT'] },
      order: [['position', 'ASC']],
      transaction,
    });
    const settle = async (
      item: PayoutItem,
      verdict:
        { ok: true; txId: string; blockTime: Date | null } | { ok: false; reason: string; txId?: string },
    ) => {
      if (verdict.ok) {
        item.txId = verdict.txId;
        item.blockTime = verdict.blockTime;
        item.confirmedAt = now;
      } else {
        item.failureReason = verdict.reason.slice(0, 500);
        if (verdict.txId) item.txId = verdict.txId;
      }
      await applyTransition(deps, transaction, PAYOUT_ITEM_LIFECYCLE, item, {
        cause: verdict.ok ? 'verified' : verdict.txId ? 'rejected' : 'deadline',
        to: verdict.ok ? 'CONFIRMED' : 'FAILED',
        actor: 'system',
        extra: payout,
      });
      await recordPayoutAudit(
        deps,
        transaction,
        {
          payoutId,
          type: verdict.ok ? 'payout.item_confirmed' : 'payout.item_failed',
          actor: null,
          data: {
            itemId: item.id,
            ...(verdict.txId ? { txId: verdict.txId } : {}),
            ...(verdict.ok ? {} : { reason: verdict.reason }),
          },
        },
        now,
      );
    };

    const closed = new Set<string>();
    const contracts = await batchContractsOf(deps, payout.merchantId, transaction);
    for (const { network, tx } of observed) {
      if (tx.state === 'not_found' || tx.state === 'not_final') continue;
      for (const item of open) {
        if (closed.has(item.id) || item.network !== network || !item.fromAddress) continue;
        const facts = {
          tag: item.tag,
          tokenMint: item.tokenMint,
          from: item.fromAddress,
          to: item.toAddress,
          amountUnits: item.amountUnits,
          decimals: item.decimals,
        };
        // A batch contract's call counts only through the account's verified contract, by its Paid events.
        const verdict = tx.batchCall
          ? judgeBatchItem(facts, { ...tx, batchCall: tx.batchCall }, contracts.get(network)?.address ?? null)
          : judgeRefund({ ...facts, sendableSince: payout.approvedAt ?? payout.createdAt }, tx);
        if (verdict.kind === 'accept') {
          closed.add(item.id);
          await settle(item, { ok: true, txId: tx.txId, blockTime: verdict.blockTime });
        } else if (verdict.kind === 'reject') {
          closed.add(item.id);
          await settle(item, { ok: false, reason: verdict.reason, txId: tx.txId });
        }
      }
      await deps.db.sequelize.query(
        'UPDATE payout_transactions SET settled_at = $at WHERE payout_id = $payoutId AND network = $network AND tx_id = $txId',
        { bind: { at: now, payoutId, network, txId: tx.txId }, transaction },
      );
    }
    if (payout.deadlineAt && now.getTime() >= payout.deadlineAt.getTime())
      for (const item of open)
        if (!closed.has(item.id)) {
          closed.add(item.id);
          await settle(item, { ok: false, reason: 'no final transfer by the deadline' });
        }

    const statuses = await deps.db.models.PayoutItem.findAll({
      where: { payoutId },
      attributes: ['status'],
      transaction,
    });
    const to = settledStatus(statuses.map((s) => s.status));
    if (to === null) return;
    payout.nextCheckAt = null;
    await recordPayoutAudit(
      deps,
      transaction,
      { payoutId, type: 'payout.settled', actor: null, data: { status: to } },
      now,
    );
    await applyTransition(deps, transaction, PAYOUT_LIFECYCLE, payout, {
      cause: 'settled',
      to,
      actor: 'system',
    });
  });
}
