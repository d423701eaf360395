import type { EvmNetwork, PayoutBatchContract } from '../../contract';
import { PAYOUT_BATCH_RUNTIME } from '../chains/evm/payout-batch/payout-batch';
import { chainFor } from '../chains/registry';
import type { Deps } from '../deps';
import { createdByOf, type Caller } from '../events/actor';
import { ApiError } from '../errors';
import { presentBatchContract } from './list-batch-contracts';
import { payingWalletOn } from './paying-wallets';

/**
 * A member reports the deployment of the account's PayoutBatch contract. Nothing claimed is
 * trusted: the receipt, read at the service's finality, names the sender (it must be the account's
 * paying wallet on the network) and the contract's address; the code there must be the artifact's
 * runtime code byte for byte. Only then is it recorded (replacing any earlier one); payouts through
 * it are verified against that address alone. The caller who reported it is recorded with it.
 */
export async function reportBatchContract(
  deps: Deps,
  input: { merchantId: string; network: EvmNetwork; txId: string; by: Caller },
): Promise<PayoutBatchContract> {
  const chain = chainFor(deps.chains, input.network, 'params.network');
  const txId = chain.normalizeTxId(input.txId);
  if (txId === null) throw ApiError.field('body.txId', chain.txIdFormat);
  if (!chain.readDeployment)
    throw ApiError.field('params.network', `${input.network} takes no payout batch contract`);
  const from = await payingWalletOn(deps, input.merchantId, input.network);
  const seen = await chain.readDeployment(txId);
  if (seen.state !== 'final' && seen.state !== 'failed')
    throw ApiError.conflict(
      `The deployment is ${seen.state.replace('_', ' ')} yet: report it again once it is mined`,
    );
  const refuse = (why: string) => ApiError.field('body.txId', why);
  if (seen.state === 'failed') throw refuse('the transaction failed on chain');
  if (seen.from.toLowerCase() !== from.toLowerCase())
    throw refuse(`was sent by ${seen.from}, not by the account's paying wallet ${from}`);
  if (!seen.contractAddress) throw refuse('deploys no contract');
  if (seen.code !== PAYOUT_BATCH_RUNTIME.toLowerCase())
    throw refuse(`the code at ${seen.contractAddress} is not PayoutBatch's`);
  const recorded = {
    address: seen.contractAddress,
    deploy_tx_id: txId,
    deployed_by: seen.from,
    verified_at: deps.clock(),
    reported_by: createdByOf(input.by),
  };
  await deps.db.sequelize.query(
    `INSERT INTO payout_batch_contracts (merchant_id, network, address, deploy_tx_id, deployed_by, verified_at, reported_by)
     VALUES ($merchantId, $network, $address, $txId, $from, $at, CAST($by AS jsonb))
     ON CONFLICT (merchant_id, network) DO UPDATE
       SET address = EXCLUDED.address, deploy_tx_id = EXCLUDED.deploy_tx_id,
           deployed_by = EXCLUDED.deployed_by, verified_at = EXCLUDED.verified_at,
           reported_by = EXCLUDED.reported_by`,
    {
      bind: {
        merchantId: input.merchantId,
        network: input.network,
        address: recorded.address,
        txId: recorded.deploy_tx_id,
        from: recorded.deployed_by,
        at: recorded.verified_at,
        by: JSON.stringify(recorded.reported_by),
      },
    },
  );
  // What was just written is the answer: no second read.
  return presentBatchContract(input.network, recorded);
}
