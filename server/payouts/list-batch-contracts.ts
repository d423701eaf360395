import { isEvmNetwork, type EvmNetwork, type PayoutBatchContract } from '../../contract';
import type { Deps } from '../deps';
import { batchContractsOf, type BatchContractRow } from './batch-contract-of';

/** The account's PayoutBatch contract on each EVM network that is on: VERIFIED with its address, or NONE. */
export async function listBatchContracts(
  deps: Deps,
  merchantId: string,
): Promise<{ items: PayoutBatchContract[] }> {
  const recorded = await batchContractsOf(deps, merchantId);
  const items = deps.chains
    .all()
    .map((c) => c.network)
    .filter(isEvmNetwork)
    .map((network) => presentBatchContract(network, recorded.get(network)));
  return { items };
}

/** A network's contract as the API shows it: VERIFIED with its recorded row, or NONE. */
export function presentBatchContract(
  network: EvmNetwork,
  row: Omit<BatchContractRow, 'network'> | undefined,
): PayoutBatchContract {
  return {
    network,
    status: row ? 'VERIFIED' : 'NONE',
    address: row?.address ?? null,
    deployTxId: row?.deploy_tx_id ?? null,
    deployedBy: row?.deployed_by ?? null,
    verifiedAt: row?.verified_at.toISOString() ?? null,
    reportedBy: row?.reported_by ?? null,
  };
}
