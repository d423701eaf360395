import { runSql } from './run-sql';
import { createdAt, lease, merchantRefCascading, timestamps } from './columns';

/**
 * Payouts (issue 40): batches of transfers the merchant's own wallets send, each item verified on
 * chain like a refund. A batch (`payouts`) holds up to 500 items (`payout_items`), each with its
 * network, token (mint or contract and decimals as they were when it was made), recipient and exact
 * amount in base units (numeric: 18 decimals exceed 2^63). Approvals are rows of their own, one per
 * member, so two of them by the same member can never count twice. The batch's audit trail
 * (`payout_audit_entries`) names the member who acted; orders' timeline is not theirs.
 *
 * `merchants.payout_approvals`: how many members approve a batch (1, or 2: the creator and another);
 * `PATCH /account` sets it.
 */
export const up = runSql(`
    ALTER TABLE merchants ADD COLUMN payout_approvals smallint NOT NULL DEFAULT 1
      CHECK (payout_approvals IN (1, 2));

    CREATE TABLE payouts (
      id text PRIMARY KEY,
      ${merchantRefCascading},
      status text NOT NULL
        CHECK (status IN ('DRAFT', 'APPROVED', 'SENDING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELED')),
      description text,
      created_by uuid NOT NULL REFERENCES members(id),
      approvals_required smallint NOT NULL,
      approved_at timestamptz,
      deadline_at timestamptz,
      canceled_at timestamptz,
      next_check_at timestamptz,
      ${lease},
      ${timestamps}
    );
    CREATE INDEX payouts_merchant_idx ON payouts (merchant_id, created_at DESC, id DESC);
    CREATE INDEX payouts_check_idx ON payouts (next_check_at) WHERE next_check_at IS NOT NULL;

    CREATE TABLE payout_items (
      id text PRIMARY KEY,
      payout_id text NOT NULL REFERENCES payouts(id) ON DELETE CASCADE,
      position integer NOT NULL,
      network text NOT NULL,
      token text NOT NULL,
      token_mint text NOT NULL,
      decimals smallint NOT NULL,
      from_address text,
      to_address text NOT NULL,
      amount_units numeric(78, 0) NOT NULL CHECK (amount_units > 0),
      tag text NOT NULL,
      reference text,
      note text,
      status text NOT NULL CHECK (status IN ('PENDING', 'SENT', 'CONFIRMED', 'FAILED')),
      tx_id text,
      block_time timestamptz,
      failure_reason text,
      confirmed_at timestamptz,
      ${timestamps},
      UNIQUE (payout_id, position)
    );
    -- One transfer confirms one item: the same transaction and item can never be counted twice.
    CREATE INDEX payout_items_tx_idx ON payout_items (network, tx_id) WHERE tx_id IS NOT NULL;

    -- Transactions reported for a batch: the verifier reads each until it is final (or gone).
    CREATE TABLE payout_transactions (
      payout_id text NOT NULL REFERENCES payouts(id) ON DELETE CASCADE,
      network text NOT NULL,
      tx_id text NOT NULL,
      settled_at timestamptz,
      ${createdAt},
      PRIMARY KEY (payout_id, network, tx_id)
    );

    CREATE TABLE payout_approvals (
      payout_id text NOT NULL REFERENCES payouts(id) ON DELETE CASCADE,
      member_id uuid NOT NULL REFERENCES members(id),
      ${createdAt},
      PRIMARY KEY (payout_id, member_id)
    );

    CREATE TABLE payout_audit_entries (
      id bigserial PRIMARY KEY,
      payout_id text NOT NULL REFERENCES payouts(id) ON DELETE CASCADE,
      type text NOT NULL,
      member_id uuid REFERENCES members(id),
      api_key_id text,
      data jsonb NOT NULL DEFAULT '{}',
      ${createdAt}
    );
    CREATE INDEX payout_audit_entries_payout_idx ON payout_audit_entries (payout_id, id);
  `);

export const down = runSql(`
    DROP TABLE payout_audit_entries;
    DROP TABLE payout_approvals;
    DROP TABLE payout_transactions;
    DROP TABLE payout_items;
    DROP TABLE payouts;
    ALTER TABLE merchants DROP COLUMN payout_approvals;
  `);
