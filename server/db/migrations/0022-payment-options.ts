import { runSql } from './run-sql';

/**
 * The payer's choice of network and token (issue 29). An order's first payment option is its own
 * columns, as before, and never changes; the others are `payment_options`, a JSON array (null for
 * a one-option order, which is written exactly as before), each element one option:
 * `{network, token, tokenMint, decimals, recipient, walletId, amountUnits, amountUnique}`
 * (`amountUnits` a decimal string of the option's own base units). Its amount is reserved in
 * amount_reservations like the first option's, under the same reference, keyed per receiving
 * account and token. The partial GIN index finds the orders with an option to a (network,
 * recipient, token), and one with an exact amount, by containment.
 *
 * Sums across tokens of different decimals stay exact: `amount_received_units` and
 * `amount_refunded_units` are kept in 10^-sum_decimals token, the finest decimals among the order's
 * options (NULL, as on every order made before: the order's own token_decimals).
 *
 * `paid_with`: the option (0 = the order's own fields) of the first credited payment. Each credited
 * transfer and each refund names its option (`option_index`, 0 for everything before).
 */
export const up = runSql(`
    ALTER TABLE orders
      ADD COLUMN payment_options jsonb,
      ADD COLUMN sum_decimals smallint CHECK (sum_decimals BETWEEN 6 AND 36),
      ADD COLUMN paid_with smallint CHECK (paid_with BETWEEN 0 AND 15);
    CREATE INDEX orders_payment_options_idx ON orders USING gin (payment_options jsonb_path_ops)
      WHERE payment_options IS NOT NULL;
    ALTER TABLE payment_claims ADD COLUMN option_index smallint NOT NULL DEFAULT 0;
    ALTER TABLE refunds ADD COLUMN option_index smallint NOT NULL DEFAULT 0;
  `);

export const down = runSql(`
    ALTER TABLE refunds DROP COLUMN option_index;
    ALTER TABLE payment_claims DROP COLUMN option_index;
    DROP INDEX orders_payment_options_idx;
    ALTER TABLE orders DROP COLUMN paid_with, DROP COLUMN sum_decimals, DROP COLUMN payment_options;
  `);
