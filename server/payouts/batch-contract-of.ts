import { QueryTypes, type Transaction } from 'sequelize';
import type { CreatedBy, Network } from '../../contract';
import type { Deps } from '../deps';

export type BatchContractRow = {
  network: Network;
  address: string;
  deploy_tx_id: string;
  deployed_by: string;
  verified_at: Date;
  /** Who reported it (null: recorded before this was kept). */
  reported_by: CreatedBy;
};

/** The account's verified PayoutBatch contracts, by network (only verified ones are ever recorded). */
export async function batchContractsOf(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  transaction?: Transaction,
): Promise<Map<Network, BatchContractRow>> {
  const rows = await deps.db.sequelize.query<BatchContractRow>(
    'SELECT network, address, deploy_tx_id, deployed_by, verified_at, reported_by FROM payout_batch_contracts WHERE merchant_id = :merchantId',
    { type: QueryTypes.SELECT, replacements: { merchantId }, transaction },
  );
  return new Map(rows.map((r) => [r.network, r]));
}
