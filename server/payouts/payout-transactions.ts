import { Op } from 'sequelize';
import type { Network, PayoutTransaction } from '../../contract';
import { formatUnits } from '../../contract/decimal';
import type { RefundTarget } from '../chains/chain-adapter';
import type { PayoutItem } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { batchContractsOf, type BatchContractRow } from './batch-contract-of';
import { findPayout } from './find-payout';
import { payingWallets } from './paying-wallets';

/**
 * The unsigned transactions that pay the batch's items not yet sent, from the paying wallet of each
 * network (the account's first wallet there), with their fees. Given for an APPROVED batch (and a
 * SENDING one, for the items still PENDING). The paying wallet is kept on each item: the verifier
 * checks the transfer came from it. With `batch`, an EVM network where the account's PayoutBatch
 * contract is verified gets an approve and one pay() per token instead of a transfer per item.
 */
export async function payoutTransactions(
  deps: Deps,
  input: { merchantId: string; id: string; batch?: boolean },
): Promise<{ transactions: PayoutTransaction[] }> {
  const payout = await findPayout(deps, { id: input.id, merchantId: input.merchantId });
  if (payout.status !== 'APPROVED' && payout.status !== 'SENDING')
    throw ApiError.conflict(`The payout is ${payout.status}: transactions are given once it is APPROVED`);
  const items = await deps.db.models.PayoutItem.findAll({
    where: { payoutId: payout.id, status: 'PENDING' },
    order: [['position', 'ASC']],
  });
  const byNetwork = new Map<Network, PayoutItem[]>();
  for (const item of items) byNetwork.set(item.network, [...(byNetwork.get(item.network) ?? []), item]);
  const wallets = await payingWallets(deps, payout.merchantId, [...byNetwork.keys()]);
  const contracts = input.batch
    ? await batchContractsOf(deps, payout.merchantId)
    : new Map<Network, BatchContractRow>();

  const transactions: PayoutTransaction[] = [];
  for (const [network, networkItems] of byNetwork) {
    const from = wallets.get(network);
    if (!from) throw ApiError.conflict(`The account has no wallet on ${network} to pay from: add one first`);
    const chain = deps.chains.forChecks(network);
    if (!chain.buildPayoutTransactions)
      throw ApiError.conflict(`Payouts on ${network} are not supported yet`);
    const targets: RefundTarget[] = networkItems.map((item) => ({
      id: item.id,
      tag: item.tag,
      token: item.token,
      tokenMint: item.tokenMint,
      decimals: item.decimals,
      from,
      to: item.toAddress,
      amountUnits: item.amountUnits,
    }));
    // Through the account's verified batch contract when asked for (and the paying wallet deployed it).
    const contract = contracts.get(network);
    const drafts =
      contract && chain.buildBatchPayoutTransactions
        ? await chain.buildBatchPayoutTransactions(from, contract.address, targets)
        : await chain.buildPayoutTransactions(from, targets);
    await deps.db.models.PayoutItem.update(
      { fromAddress: from },
      { where: { id: { [Op.in]: networkItems.map((i) => i.id) }, status: 'PENDING' } },
    );
    for (const draft of drafts)
      transactions.push({
        network,
        from,
        items: draft.ids,
        purpose: draft.purpose ?? 'pay',
        transaction: draft.transaction,
        feeEstimate: formatUnits(draft.feeUnits, draft.feeDecimals, 0),
      });
  }
  return { transactions };
}
