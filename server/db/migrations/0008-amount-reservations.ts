import { runSql } from './run-sql';

/**
 * Unique amounts without a lock across order creation: each payable order holds its amount to its
 * recipient as a row here (the primary key makes two holders impossible), until it is paid or its
 * late-payment window ends. An order that found no free amount within the bound is created with
 * its plain amount and `amount_unique = false`: it is matched by tag or claim, never by amount.
 */
export const up = runSql(`
    CREATE TABLE amount_reservations (
      network text NOT NULL,
      recipient text NOT NULL,
      token_mint text NOT NULL,
      amount_units bigint NOT NULL,
      reference text NOT NULL,
      held_until timestamptz NOT NULL,
      PRIMARY KEY (network, recipient, token_mint, amount_units)
    );
    CREATE INDEX amount_reservations_reference_idx ON amount_reservations (reference);
    ALTER TABLE orders ADD COLUMN amount_unique boolean NOT NULL DEFAULT true;
    -- Orders that can still be paid keep their amounts (24 h: the default late-payment window).
    INSERT INTO amount_reservations (network, recipient, token_mint, amount_units, reference, held_until)
      SELECT DISTINCT ON (network, recipient, token_mint, amount_units)
             network, recipient, token_mint, amount_units, reference, expires_at + interval '1 day'
        FROM orders
       WHERE status <> 'PAID' AND expires_at + interval '1 day' > now()
       ORDER BY network, recipient, token_mint, amount_units, expires_at DESC;
  `);

export const down = runSql(`
    ALTER TABLE orders DROP COLUMN amount_unique;
    DROP TABLE amount_reservations;
  `);
