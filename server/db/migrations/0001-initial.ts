import { runSql } from './run-sql';
import { createdAt, identityKey, merchantRef, orderRef, timestamps } from './columns';

/** Base schema. Money is bigint base units (6 decimals); statuses are checked by the database. */
export const up = runSql(`
    CREATE TABLE merchants (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL,
      password_hash text NOT NULL,
      token_version integer NOT NULL DEFAULT 0,
      full_name text,
      phone text,
      webhook_url text,
      messenger_chat_id text,
      messenger_bot_token_sealed text,
      webhook_secret_sealed text,
      previous_webhook_secret_sealed text,
      previous_webhook_secret_expires_at timestamptz,
      ${timestamps}
    );
    CREATE UNIQUE INDEX merchants_email_key ON merchants (lower(email));

    CREATE TABLE wallets (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      ${merchantRef},
      name text,
      network text NOT NULL CHECK (network IN ('SOLANA', 'POLYGON', 'ETHEREUM')),
      public_address text NOT NULL,
      ${createdAt},
      deleted_at timestamptz
    );
    -- Deleted wallets are kept: past orders still point at them.
    CREATE UNIQUE INDEX wallets_active_address_key ON wallets (merchant_id, network, public_address)
      WHERE deleted_at IS NULL;

    CREATE TABLE orders (
      ${identityKey},
      reference text NOT NULL UNIQUE,
      ${merchantRef},
      wallet_id uuid NOT NULL REFERENCES wallets(id),
      network text NOT NULL CHECK (network IN ('SOLANA', 'POLYGON', 'ETHEREUM')),
      token text NOT NULL CHECK (token IN ('USDT', 'USDC')),
      token_mint text NOT NULL,
      recipient text NOT NULL,
      amount_units bigint NOT NULL CHECK (amount_units > 0),
      amount_received_units bigint NOT NULL DEFAULT 0 CHECK (amount_received_units >= 0),
      quote_currency text,
      quote_units bigint,
      fx_rate text,
      fx_source text,
      quoted_at timestamptz,
      status text NOT NULL CHECK (status IN ('PENDING', 'CONFIRMING', 'PAID', 'UNDERPAID', 'EXPIRED')),
      description text,
      metadata jsonb,
      webhook_url text,
      messenger_chat_id text,
      tx_id text,
      paid_at timestamptz,
      paid_late boolean NOT NULL DEFAULT false,
      expires_at timestamptz NOT NULL,
      ${timestamps}
    );
    -- Listing is a keyset walk on (merchant_id, id), newest first, at any depth.
    CREATE INDEX orders_merchant_idx ON orders (merchant_id, id DESC);
    CREATE INDEX orders_merchant_status_idx ON orders (merchant_id, status, id DESC);
    CREATE INDEX orders_merchant_network_idx ON orders (merchant_id, network, id DESC);
    CREATE INDEX orders_expiry_idx ON orders (expires_at) WHERE status IN ('PENDING', 'UNDERPAID');
    -- Matching a payment by recipient and amount, and keeping open amounts unique per recipient.
    CREATE INDEX orders_recipient_amount_idx ON orders (network, recipient, token_mint, amount_units)
      WHERE status <> 'PAID';

    -- Transaction ids reported for (or found paying) an order. One transaction pays at most one order.
    CREATE TABLE payment_claims (
      ${identityKey},
      ${orderRef},
      network text NOT NULL,
      tx_id text NOT NULL,
      source text NOT NULL CHECK (source IN ('merchant', 'payer', 'scanner')),
      status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'VERIFIED', 'REJECTED')),
      amount_units bigint,
      reason text,
      attempts integer NOT NULL DEFAULT 0,
      next_check_at timestamptz NOT NULL DEFAULT now(),
      ${timestamps}
    );
    CREATE UNIQUE INDEX payment_claims_tx_key ON payment_claims (network, tx_id) WHERE status <> 'REJECTED';
    CREATE INDEX payment_claims_order_idx ON payment_claims (order_id);
    CREATE INDEX payment_claims_due_idx ON payment_claims (next_check_at) WHERE status = 'PENDING';

    CREATE TABLE audit_entries (
      ${identityKey},
      ${orderRef},
      type text NOT NULL,
      actor text NOT NULL CHECK (actor IN ('merchant', 'payer', 'system')),
      data jsonb NOT NULL DEFAULT '{}',
      ${createdAt}
    );
    CREATE INDEX audit_entries_order_idx ON audit_entries (order_id, id);

    CREATE TABLE idempotency_keys (
      ${merchantRef},
      key text NOT NULL,
      request_hash text NOT NULL,
      response_status integer,
      response_body jsonb,
      ${createdAt},
      PRIMARY KEY (merchant_id, key)
    );

    CREATE TABLE webhook_deliveries (
      ${identityKey},
      ${orderRef},
      event_id text NOT NULL,
      event_type text NOT NULL,
      url text NOT NULL,
      attempt integer NOT NULL,
      request_body text NOT NULL,
      response_status integer,
      response_body text,
      error text,
      duration_ms integer,
      next_retry_at timestamptz,
      ${createdAt}
    );
    CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (order_id, id);

    CREATE TABLE messenger_deliveries (
      ${identityKey},
      ${orderRef},
      event_type text NOT NULL,
      chat_id text NOT NULL,
      text text NOT NULL,
      status text NOT NULL CHECK (status IN ('SENT', 'FAILED')),
      response_status integer,
      response_body text,
      error text,
      attempt integer NOT NULL,
      ${createdAt}
    );
    CREATE INDEX messenger_deliveries_order_idx ON messenger_deliveries (order_id, id);
  `);

export const down = runSql(`
    DROP TABLE messenger_deliveries, webhook_deliveries, idempotency_keys, audit_entries,
      payment_claims, orders, wallets, merchants;
  `);
