import { runSql } from './run-sql';
import { createdAt, merchantRefCascading } from './columns';

/**
 * Invitations to join an account (issue 38): the link's token is never stored, only its SHA-256
 * (`token_hash`), as for API keys. A link works once (`accepted_at`), until `expires_at`, unless
 * revoked (`revoked_at`). An invitation is mailed through the e-mail outbox, whose rows were all
 * about an order until now: `order_id` may be null and `kind` may be `invitation`.
 *
 * Orders say who made them (`created_by`): `{"memberId", "email"}` for a member, `{"apiKeyId"}`
 * for an API key, null for the system (and for every order made before).
 */
export const up = runSql(`
    CREATE TABLE member_invitations (
      id uuid PRIMARY KEY,
      ${merchantRefCascading},
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'finance', 'cashier', 'viewer')),
      token_hash text NOT NULL UNIQUE,
      invited_by uuid REFERENCES members(id),
      ${createdAt},
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      revoked_at timestamptz
    );
    CREATE INDEX member_invitations_merchant_idx ON member_invitations (merchant_id, created_at);

    ALTER TABLE email_deliveries ALTER COLUMN order_id DROP NOT NULL;
    ALTER TABLE email_deliveries DROP CONSTRAINT email_deliveries_kind_check;
    ALTER TABLE email_deliveries ADD CONSTRAINT email_deliveries_kind_check
      CHECK (kind IN ('order', 'reminder', 'receipt', 'invitation'));

    ALTER TABLE orders ADD COLUMN created_by jsonb;
    CREATE INDEX orders_created_by_member_idx ON orders (merchant_id, ((created_by->>'memberId')), created_at)
      WHERE created_by ? 'memberId';
  `);

export const down = runSql(`
    ALTER TABLE orders DROP COLUMN created_by;
    DELETE FROM email_deliveries WHERE order_id IS NULL;
    ALTER TABLE email_deliveries DROP CONSTRAINT email_deliveries_kind_check;
    ALTER TABLE email_deliveries ADD CONSTRAINT email_deliveries_kind_check
      CHECK (kind IN ('order', 'reminder', 'receipt'));
    ALTER TABLE email_deliveries ALTER COLUMN order_id SET NOT NULL;
    DROP TABLE member_invitations;
  `);
