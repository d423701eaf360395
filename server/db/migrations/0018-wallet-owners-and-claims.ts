import type { Migration } from '../migrate';
import { runSql } from './run-sql';
import { createdAt, identityKey, merchantRef } from './columns';

/**
 * Money safety against other people (issue 27).
 *
 * One owner per address: `wallet_owners` holds, for each (network, address), the one merchant that
 * may receive there; the first to register it keeps it, also after removing the wallet (an address
 * is a key someone holds, it does not change hands). Addresses registered by several merchants
 * before this migration stay with the oldest registration still in use (else the oldest): the
 * others' wallets are removed and their orders to it are never matched again. Each removal is
 * reported in the start-up log ("migration notice").
 *
 * Claims: a payer's report may carry a signature by the sending wallet (`proof_message`,
 * `proof_signature`); one without, of a transfer that neither names the order nor pays its exact
 * amount, ends UNPROVEN (recorded, credits nothing). Only a credited (VERIFIED) claim holds its
 * transaction: reports for several orders may be checked side by side, and no report blocks another.
 *
 * Unattributed payments: final transfers to a merchant's wallet that credit no order.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(`
    CREATE TABLE wallet_owners (
      network text NOT NULL,
      address text NOT NULL,
      ${merchantRef},
      ${createdAt},
      PRIMARY KEY (network, address)
    );
    INSERT INTO wallet_owners (network, address, merchant_id, created_at)
      SELECT DISTINCT ON (network, public_address) network, public_address, merchant_id, created_at
        FROM wallets
       ORDER BY network, public_address, deleted_at IS NOT NULL, created_at, id;
  `);
  const [removed] = (await db.query(`
    UPDATE wallets AS w SET deleted_at = now()
      FROM wallet_owners AS o
     WHERE w.network = o.network AND w.public_address = o.address
       AND w.merchant_id <> o.merchant_id AND w.deleted_at IS NULL
    RETURNING w.id, w.merchant_id, w.network, w.public_address, o.merchant_id AS owner_id
  `)) as [{ id: string; merchant_id: string; network: string; public_address: string; owner_id: string }[]];
  for (const wallet of removed)
    db.notice(
      `wallet ${wallet.id} of merchant ${wallet.merchant_id} removed: ${wallet.network} ${wallet.public_address} belongs to merchant ${wallet.owner_id}, who registered it first`,
      { ...wallet },
    );
  await db.query(`
    -- Amounts held by other merchants' orders to an owned address are nobody's evidence now.
    DELETE FROM amount_reservations AS r
     USING orders AS o, wallet_owners AS w
     WHERE r.reference = o.reference AND w.network = o.network AND w.address = o.recipient
       AND w.merchant_id <> o.merchant_id;
    DROP INDEX wallets_active_address_key;
    CREATE UNIQUE INDEX wallets_active_address_key ON wallets (network, public_address) WHERE deleted_at IS NULL;

    ALTER TABLE payment_claims
      ADD COLUMN proof_message text,
      ADD COLUMN proof_signature text,
      DROP CONSTRAINT payment_claims_status_check,
      ADD CONSTRAINT payment_claims_status_check CHECK (status IN ('PENDING', 'VERIFIED', 'REJECTED', 'UNPROVEN'));
    DROP INDEX payment_claims_tx_key;
    -- One transaction pays at most one order: held by the claim that credited it, and only by it.
    CREATE UNIQUE INDEX payment_claims_tx_key ON payment_claims (network, tx_id) WHERE status = 'VERIFIED';
    CREATE INDEX payment_claims_tx_idx ON payment_claims (network, tx_id);

    CREATE TABLE unattributed_payments (
      ${identityKey},
      ${merchantRef},
      network text NOT NULL,
      tx_id text NOT NULL,
      recipient text NOT NULL,
      token text NOT NULL,
      token_mint text NOT NULL,
      token_decimals smallint NOT NULL,
      sender text,
      amount_units numeric(78, 0) NOT NULL,
      block_time timestamptz,
      ${createdAt},
      attributed_order_id bigint REFERENCES orders(id),
      attributed_at timestamptz,
      UNIQUE (network, tx_id, recipient, token_mint)
    );
    CREATE INDEX unattributed_payments_open_idx ON unattributed_payments (merchant_id, id DESC)
      WHERE attributed_at IS NULL;
  `);
};

export const down = runSql(`
    DROP TABLE unattributed_payments;
    DROP INDEX payment_claims_tx_key;
    DROP INDEX payment_claims_tx_idx;
    DELETE FROM payment_claims WHERE status = 'UNPROVEN';
    ALTER TABLE payment_claims
      DROP CONSTRAINT payment_claims_status_check,
      ADD CONSTRAINT payment_claims_status_check CHECK (status IN ('PENDING', 'VERIFIED', 'REJECTED')),
      DROP COLUMN proof_message,
      DROP COLUMN proof_signature;
    CREATE UNIQUE INDEX payment_claims_tx_key ON payment_claims (network, tx_id) WHERE status <> 'REJECTED';
    DROP INDEX wallets_active_address_key;
    CREATE UNIQUE INDEX wallets_active_address_key ON wallets (merchant_id, network, public_address)
      WHERE deleted_at IS NULL;
    DROP TABLE wallet_owners;
  `);
