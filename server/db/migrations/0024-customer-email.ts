import { runSql } from './run-sql';
import { merchantRef, orderRef, timestamps } from './columns';

/**
 * E-mail to customers (issue 30). An order may name its payer's address and language
 * (`customer_email`, `customer_language`); `email_deliveries` is the outbox of e-mails to them,
 * each rendered once when queued (in the transaction of what it tells: the order PAID, a period's
 * order made) and sent by the send-emails job, leased like event_deliveries (`locked_by` until
 * `locked_until`). `status`: PENDING (not tried) -> SENT; FAILED (the last attempt failed, the
 * next is due at `next_attempt_at`); GAVE_UP. The partial index holds only rows still to send, so
 * the sender reads what is due and never the sent history.
 */
export const up = runSql(`
    ALTER TABLE orders
      ADD COLUMN customer_email text CHECK (length(customer_email) <= 254),
      ADD COLUMN customer_language text CHECK (customer_language IN ('en', 'pt-BR', 'es'));
    CREATE TABLE email_deliveries (
      id text PRIMARY KEY CHECK (id ~ '^em_[0-9a-f]{32}$'),
      ${orderRef},
      ${merchantRef},
      kind text NOT NULL CHECK (kind IN ('order', 'reminder', 'receipt')),
      to_address text NOT NULL CHECK (length(to_address) <= 254),
      language text NOT NULL CHECK (language IN ('en', 'pt-BR', 'es')),
      subject text NOT NULL,
      text text NOT NULL,
      html text NOT NULL,
      status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'FAILED', 'GAVE_UP')),
      attempt integer NOT NULL DEFAULT 0,
      error text,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      locked_until timestamptz,
      locked_by text,
      ${timestamps}
    );
    CREATE INDEX email_deliveries_due_idx ON email_deliveries (next_attempt_at)
      WHERE status IN ('PENDING', 'FAILED');
    CREATE INDEX email_deliveries_order_idx ON email_deliveries (order_id, created_at);
  `);

export const down = runSql(`
    DROP TABLE email_deliveries;
    ALTER TABLE orders DROP COLUMN customer_language, DROP COLUMN customer_email;
  `);
