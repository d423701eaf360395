import { runSql } from './run-sql';

/**
 * Tokens of any decimals (BSC's USDT and USDC have 18), on networks added by configuration.
 *
 * Amounts stay integer base units of the order's own token, now numeric(78,0): 78 digits hold any
 * uint256, where bigint held 9.2 × 10^18 units (9.2 tokens at 18 decimals). Each order keeps the
 * decimals its token had when it was made (`token_decimals`), so its amounts read the same after
 * an operator changes a setting. Orders made before are 6-decimal tokens: the default, which the
 * service never relies on (it writes every column of a new order).
 *
 * The network lists in CHECK constraints go: the networks are the contract's (a further EVM network
 * is a line in contract/network-table.ts), and the service refuses a network that is off.
 */
export const up = runSql(`
    ALTER TABLE orders
      ALTER COLUMN amount_units TYPE numeric(78, 0),
      ALTER COLUMN amount_received_units TYPE numeric(78, 0),
      ALTER COLUMN amount_refunded_units TYPE numeric(78, 0),
      ADD COLUMN token_decimals smallint NOT NULL DEFAULT 6 CHECK (token_decimals BETWEEN 6 AND 36),
      DROP CONSTRAINT orders_network_check,
      ADD CONSTRAINT orders_network_check CHECK (network ~ '^[A-Z][A-Z0-9_]{1,19}$');
    ALTER TABLE wallets
      DROP CONSTRAINT wallets_network_check,
      ADD CONSTRAINT wallets_network_check CHECK (network ~ '^[A-Z][A-Z0-9_]{1,19}$');
    ALTER TABLE payment_claims ALTER COLUMN amount_units TYPE numeric(78, 0);
    ALTER TABLE refunds ALTER COLUMN amount_units TYPE numeric(78, 0);
    ALTER TABLE amount_reservations ALTER COLUMN amount_units TYPE numeric(78, 0);
    -- The dashboard's hourly figures keep received amounts in 10^-36 token, whatever the decimals.
    UPDATE payment_stats_hourly SET received_units = received_units * 1e30;
  `);

export const down = runSql(`
    UPDATE payment_stats_hourly SET received_units = received_units / 1e30;
    ALTER TABLE amount_reservations ALTER COLUMN amount_units TYPE bigint;
    ALTER TABLE refunds ALTER COLUMN amount_units TYPE bigint;
    ALTER TABLE payment_claims ALTER COLUMN amount_units TYPE bigint;
    ALTER TABLE wallets
      DROP CONSTRAINT wallets_network_check,
      ADD CONSTRAINT wallets_network_check CHECK (network IN ('SOLANA', 'POLYGON', 'ETHEREUM'));
    ALTER TABLE orders
      DROP CONSTRAINT orders_network_check,
      ADD CONSTRAINT orders_network_check CHECK (network IN ('SOLANA', 'POLYGON', 'ETHEREUM')),
      DROP COLUMN token_decimals,
      ALTER COLUMN amount_refunded_units TYPE bigint,
      ALTER COLUMN amount_received_units TYPE bigint,
      ALTER COLUMN amount_units TYPE bigint;
  `);
