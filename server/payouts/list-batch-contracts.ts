import { isEvmNetwork, type PayoutBatchContract } from '../../contract';
import type { Deps } from '../deps';
import { batchContractsOf } from './batch-contract-of';

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
    .map((network): PayoutBatchContract => {
      const row = recorded.get(network);
      return {
        network,
        status: row ? 'VERIFIED' : 'NONE',
        address: row?.address ?? null,
        deployTxId: row?.deploy_tx_id ?? null,
        deployedBy: row?.deployed_by ?? null,
        verifiedAt: row?.verified_at.toISOString() ?? null,
      };
    });
  return { items };
}
