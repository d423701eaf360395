import type { Deps } from '../deps';
import { ApiError } from '../errors';
import type { PayoutActor } from '../payouts/payout-audit';
import { payoutTransactions } from '../payouts/payout-transactions';
import { reportPayoutTransaction } from '../payouts/report-payout-transaction';
import { sandboxChains } from './sandbox-guard';

/**
 * Pays an APPROVED payout as the merchant would from its own wallets, as sendRefund pays a refund:
 * the sandbox holds its merchant's keys, so it signs the very transactions the payout gives
 * (GET /payouts/{id}/transactions), sends each and reports it at once (a send that fails later
 * leaves the ones before it reported). The items are CONFIRMED by the usual on-chain verification;
 * nothing here marks them.
 */
export async function sendPayout(
  deps: Deps,
  input: { merchantId: string; id: string; actor: NonNullable<PayoutActor> },
): Promise<string[]> {
  const chains = sandboxChains(deps);
  const { transactions } = await payoutTransactions(deps, input);
  const txIds: string[] = [];
  for (const built of transactions) {
    const txId = await chains.sendRefund({
      network: built.network,
      from: built.from,
      // A refund's Solana transaction comes as {transaction} (its tx-request answer's shape), a
      // payout's as the base64 alone: given in the refund's shape, the sandbox signs both one way.
      transaction:
        typeof built.transaction === 'string' ? { transaction: built.transaction } : built.transaction,
    });
    if (txId === null)
      throw ApiError.conflict(
        `The paying wallet on ${built.network} is not one the sandbox holds the key of`,
      );
    await reportPayoutTransaction(deps, { ...input, network: built.network, txId });
    txIds.push(txId);
  }
  return txIds;
}
