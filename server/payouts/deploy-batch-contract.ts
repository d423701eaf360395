import type { EvmNetwork, PayoutBatchDeployment } from '../../contract';
import { formatUnits } from '../../contract/decimal';
import { chainFor } from '../chains/registry';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { payingWalletOn } from './paying-wallets';

/** The unsigned deployment of PayoutBatch for the account's paying wallet on an EVM network, with its fee. */
export async function deployBatchContract(
  deps: Deps,
  input: { merchantId: string; network: EvmNetwork },
): Promise<PayoutBatchDeployment> {
  const chain = chainFor(deps.chains, input.network, 'body.network');
  if (!chain.buildBatchContractDeployment)
    throw ApiError.field('body.network', `${input.network} takes no payout batch contract`);
  const from = await payingWalletOn(deps, input.merchantId, input.network);
  const draft = await chain.buildBatchContractDeployment(from);
  return {
    network: input.network,
    from,
    transaction: draft.transaction,
    feeEstimate: formatUnits(draft.feeUnits, draft.feeDecimals, 0),
  };
}
