import { runSql } from './run-sql';
import { merchantRefCascading } from './columns';

/**
 * Payouts through the PayoutBatch contract (issue 40): the contract each account deployed on each
 * EVM network, recorded only once the service read its deployment on chain (sent by the account's
 * paying wallet, final, the artifact's runtime code at the address the receipt names).
 */
export const up = runSql(`
    CREATE TABLE payout_batch_contracts (
      ${merchantRefCascading},
      network text NOT NULL,
      address text NOT NULL,
      deploy_tx_id text NOT NULL,
      deployed_by text NOT NULL,
      verified_at timestamptz NOT NULL,
      PRIMARY KEY (merchant_id, network)
    )
  `);

export const down = runSql('DROP TABLE payout_batch_contracts');
