import { runSql } from './run-sql';
import { lease, merchantRefCascading } from './columns';

/**
 * Subscriptions (issue 30): an order every period, made by the `bill-subscriptions` job.
 *
 * The job reads only what is due (leased as every job's work is: server/db/lease.ts, `locked_by`
 * and `locked_until`): `next_run_at`, indexed where set, is the earliest moment
 * something may change for the subscription (its next period starts, its order's reminder is due,
 * its past-due grace runs out). A moving order (PAID, EXPIRED) sets it to now in the same
 * transaction, so the job looks at it at once. Null: nothing will ever change by itself (PAUSED,
 * CANCELED).
 *
 * `billed_period` is the period of the latest order made (-1 before the first), `billed_attempt`
 * how many times that period's order was remade after expiring unpaid. Each period's order is
 * made exactly once per attempt, whatever the number of instances: the unique index on
 * orders (subscription_id, period_index, period_attempt) refuses a second.
 *
 * `manage_token_hash`: SHA-256 of the customer's page secret (the URL is shown in the answers:
 * the token itself is kept sealed to rebuild it).
 */
export const up = runSql(`
    CREATE TABLE subscriptions (
      id text PRIMARY KEY,
      ${merchantRefCascading},
      status text NOT NULL CHECK (status IN ('INCOMPLETE', 'TRIALING', 'ACTIVE', 'PAST_DUE', 'PAUSED', 'CANCELED')),
      customer_email text,
      customer_name text,
      customer_reference text,
      customer_language text NOT NULL DEFAULT 'en',
      interval text NOT NULL CHECK (interval IN ('day', 'week', 'month', 'year')),
      interval_count integer NOT NULL CHECK (interval_count BETWEEN 1 AND 365),
      amount text,
      quote_currency text,
      quote_amount text,
      network text NOT NULL,
      token text NOT NULL,
      token_decimals smallint NOT NULL,
      payment_options jsonb,
      description text,
      metadata jsonb,
      webhook_url text,
      trial_days integer NOT NULL DEFAULT 0,
      due_days integer NOT NULL,
      anchor_at timestamptz NOT NULL,
      trial_end timestamptz,
      billed_period integer NOT NULL DEFAULT -1,
      billed_attempt integer NOT NULL DEFAULT 0,
      latest_order_id bigint,
      latest_order_reference text,
      reminder_at timestamptz,
      next_run_at timestamptz,
      ${lease},
      cancel_at_period_end boolean NOT NULL DEFAULT false,
      past_due_since timestamptz,
      paused_at timestamptz,
      canceled_at timestamptz,
      manage_token text NOT NULL,
      manage_token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX subscriptions_due_idx ON subscriptions (next_run_at) WHERE next_run_at IS NOT NULL;
    CREATE INDEX subscriptions_merchant_idx ON subscriptions (merchant_id, created_at DESC, id DESC);
    CREATE INDEX subscriptions_customer_email_idx ON subscriptions (merchant_id, lower(customer_email));

    ALTER TABLE orders
      ADD COLUMN subscription_id text,
      ADD COLUMN period_index integer,
      ADD COLUMN period_attempt integer,
      ADD COLUMN period_start timestamptz,
      ADD COLUMN period_end timestamptz;
    CREATE UNIQUE INDEX orders_subscription_period_idx ON orders (subscription_id, period_index, period_attempt)
      WHERE subscription_id IS NOT NULL;
  `);

export const down = runSql(`
    DROP INDEX orders_subscription_period_idx;
    ALTER TABLE orders
      DROP COLUMN period_end, DROP COLUMN period_start, DROP COLUMN period_attempt,
      DROP COLUMN period_index, DROP COLUMN subscription_id;
    DROP TABLE subscriptions;
  `);
