import { refundHoldsAmount } from '../../contract';
import { leaseJobBatch, releaseLease, type JobBatch } from '../db/lease';
import { ChainUnavailableError } from '../chains/chain-errors';
import type { Deps } from '../deps';
import { CLOCK_SKEW_MS } from '../payments/credited-to';
import { judgeRefund, type RefundFacts } from './judge-refund';
import { WATCHED_REFUND_STATUSES } from './refund-rules';
import { refundTarget } from './refund-target';
import { failRefund, recordRefundRejection, succeedRefund } from './settle-refund';

/** Candidate transactions read per refund and cycle; more continue next cycle from the cursor. */
const MAX_FOUND_PER_CHECK = 50;

/**
 * One bounded batch of refunds due for a look, leased by this worker (server/db/lease.ts) so
 * several instances share the work. A PENDING refund is looked for on chain from its own cursor
 * (the transfers to its address the chain lists, since it got that address) and each candidate is
 * judged like a payment, by its tag or else its exact amount; one without a verified transfer by its
 * deadline FAILS. A FAILED one is looked for the same way until its late window ends: its transfer
 * may still land (a stuck transaction, a link paid late), and then it counts.
 */
export async function verifyRefunds(deps: Deps, opts: JobBatch): Promise<number> {
  const due = await leaseJobBatch(deps, opts, {
    table: 'refunds',
    statuses: WATCHED_REFUND_STATUSES,
    returning: ['id'],
  });
  for (const row of due) {
    await checkRefund(deps, row.id, opts.owner);
    // Done with it (whatever was written): the lease goes, if this worker still holds it.
    await releaseLease(deps, { table: 'refunds', key: { id: row.id }, owner: opts.owner });
  }
  return due.length;
}

async function checkRefund(deps: Deps, refundId: string, owner: string) {
  const { models } = deps.db;
  const refund = await models.Refund.findByPk(refundId);
  const order = refund && (await models.Order.findByPk(refund.orderId));
  if (!refund || !order) return;
  const now = deps.clock();
  const deadline = `within ${deps.config.REFUND_DEADLINE_SECONDS} s`;
  const { status } = refund;
  // Logs name the refund by its tag (public on chain): its id opens the payer's page.
  const logged = { refundTag: refund.tag };

  const target = refundTarget(refund, order);
  if (status === 'SUCCEEDED' || (status === 'FAILED' && (!target || !refundHoldsAmount(refund, now)))) {
    // Settled, or past its late window: never due again.
    await models.Refund.update({ nextCheckAt: null }, { where: { id: refundId, status } });
    return;
  }
  if (status === 'AWAITING_ADDRESS' || status === 'AWAITING_APPROVAL' || !target) {
    if (now > refund.deadlineAt)
      await failRefund(deps, {
        refundId,
        reason:
          status === 'AWAITING_APPROVAL'
            ? `the merchant did not approve the address the payer gave ${deadline}`
            : `the payer gave no refund address ${deadline}`,
      });
    else await models.Refund.update({ nextCheckAt: refund.deadlineAt }, { where: { id: refundId, status } });
    return;
  }

  const sendableSince = refund.addressSetAt ?? refund.createdAt;
  const facts: RefundFacts = { ...target, sendableSince };
  let cursor = refund.scanCursor;
  let waiting = false;
  try {
    const chain = deps.chains.forChecks(refund.network);
    const page = await chain.scan(chain.refundScanTarget(target), cursor, {
      since: new Date(sendableSince.getTime() - CLOCK_SKEW_MS),
      limit: MAX_FOUND_PER_CHECK,
      onGap: (message) => deps.logger.error(logged, message),
    });
    cursor = page.cursor;
    for (const found of page.found) {
      const tx = await chain.readTransaction(found.txId);
      const verdict = judgeRefund(facts, tx);
      if (verdict.kind === 'wait') {
        // Not final yet: look again from just before it, and do not fail the refund meanwhile.
        cursor = found.resumeBefore;
        waiting = true;
        break;
      }
      if (verdict.kind === 'reject')
        await recordRefundRejection(deps, {
          orderId: order.id,
          refundId,
          txId: found.txId,
          reason: verdict.reason,
        });
      if (verdict.kind !== 'accept') continue;
      const tags = 'tags' in tx ? tx.tags : [];
      if (await succeedRefund(deps, { refundId, txId: found.txId, ...verdict, tags })) return;
    }
  } catch (error) {
    // The chain cannot be reached: try again later; the deadline waits for a look at the chain.
    if (!(error instanceof ChainUnavailableError)) throw error;
    deps.logger.warn({ ...logged, err: error.message }, 'refund check postponed');
    await models.Refund.update(
      { nextCheckAt: new Date(now.getTime() + deps.config.PAYMENT_RECHECK_MS) },
      { where: { id: refundId, status } },
    );
    return;
  }
  if (status === 'PENDING' && now > refund.deadlineAt && !waiting) {
    await failRefund(deps, { refundId, reason: `no verified refund transfer ${deadline}` });
    return;
  }
  // Only while this worker still holds the refund: a stalled one must not set the cursor back.
  await models.Refund.update(
    { scanCursor: cursor, nextCheckAt: new Date(now.getTime() + deps.config.PAYMENT_RECHECK_MS) },
    { where: { id: refundId, status, lockedBy: owner } },
  );
}
