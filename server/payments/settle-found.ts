import { QueryTypes, UniqueConstraintError } from 'sequelize';
import type { ChainAdapter, FoundTransfer, ScanTarget } from '../chains/chain-adapter';
import type { Deps } from '../deps';
import { creditedTo } from './credited-to';
import { creditFound } from './credit-found';
import { keepUnattributed } from './keep-unattributed';
import { matchOrder } from './match-order';
import { settleReportsOf } from './settle-reported-claim';
import { isUnattributed, TRANSFER_CREDITED_SQL } from './unattributed-payments';

/**
 * Settles one transaction found paying a watched recipient: the reports made of it first, then, if
 * none credited it, the order its tag or exact amount names, else it is kept unattributed. Returns
 * false when it cannot be judged yet (so the cursor must not move past it).
 */
export async function settleFound(
  deps: Deps,
  chain: ChainAdapter,
  target: ScanTarget,
  found: FoundTransfer,
  owners: Map<string, string>,
): Promise<boolean> {
  const { models, sequelize } = deps.db;
  // Whether this transfer (to this recipient) credited an order; with `any`, whether the
  // transaction credited one at all.
  const credited = async (any = false) => {
    const [row] = await sequelize.query<{ any: boolean; this: boolean }>(
      `SELECT ${TRANSFER_CREDITED_SQL} AS this,
              ${any ? `EXISTS (SELECT 1 FROM payment_claims WHERE network = :network AND tx_id = :txId AND status = 'VERIFIED')` : 'false'} AS any`,
      {
        type: QueryTypes.SELECT,
        replacements: {
          network: chain.network,
          txId: found.txId,
          recipient: found.recipient,
          tokenMint: target.token,
        },
      },
    );
    return row!;
  };
  if ((await credited()).this) return true;
  // Kept unattributed before (a scan re-reads its last blocks) and nobody reported it since: settled.
  const reported = await models.PaymentClaim.count({
    where: { network: chain.network, txId: found.txId, status: 'PENDING' },
  });
  if (
    reported === 0 &&
    (await isUnattributed(deps, chain.network, found.txId, found.recipient, target.token))
  )
    return true;
  const tx = await chain.readTransaction(found.txId);
  if (!(await settleReportsOf(deps, chain.network, found.txId, tx))) return false;
  const settled = await credited(true);
  if (settled.this) return true;
  // Not final, or gone in a reorganisation the log query has not caught up with: look again later.
  if (tx.state === 'not_found' || tx.state === 'not_final') return false;
  if (tx.state === 'failed') return true;
  // Sent by this service as x402 facilitator: its own order's, credited through its claim by the
  // verifier (server/x402/), never another order's nor unattributed, even before that claim exists.
  if (await isX402Settlement(deps, found.txId)) return true;
  const merchantId = owners.get(found.recipient);
  if (!merchantId) return true; // the wallet was removed and its orders are settled since the read
  const scope = { network: chain.network, recipient: found.recipient, tokenMint: target.token, merchantId };
  const amount = creditedTo(tx.transfers, scope.recipient, scope.tokenMint);
  if (amount === 0n) return true; // not a payment to this recipient (an outgoing transfer, say)
  // A transaction pays one order: one credited already (its transfer to another wallet) leaves
  // this transfer no order to pay; it is kept for its merchant to see.
  const orderId = settled.any ? null : await matchOrder(deps, scope, tx, amount);
  let verdict: Awaited<ReturnType<typeof creditFound>> = null;
  if (orderId)
    try {
      verdict = await creditFound(deps, { orderId, network: chain.network, txId: found.txId }, tx);
    } catch (error) {
      // Credited to an order by a report settled at the same moment: it is that order's.
      if (!(error instanceof UniqueConstraintError)) throw error;
      return false;
    }
  // Its report is being checked by the verifier: judged with it, looked at again next cycle.
  if (verdict === 'held') return false;
  if (verdict === 'accept') return true;
  await keepUnattributed(deps, chain, { ...scope, txId: found.txId }, tx, amount);
  return true;
}

/** Whether the transaction is one this service sent as x402 facilitator (x402_settlements, migration 0033). */
async function isX402Settlement(deps: Deps, txId: string): Promise<boolean> {
  const rows = await deps.db.sequelize.query(
    `SELECT 1 FROM x402_settlements WHERE transaction IN (:txId, lower(:txId)) AND status <> 'failed' LIMIT 1`,
    { type: QueryTypes.SELECT, replacements: { txId } },
  );
  return rows.length > 0;
}
