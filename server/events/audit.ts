import type { Transaction } from 'sequelize';
import type { AuditKind } from '../../contract';
import type { Database } from '../db/database';
import type { AuditActor } from '../db/models/audit-entry';

/** The API key a merchant's request came with (null: the login token). */
export type ActingKey = { id: string; name: string } | null;

/** What an audit entry written for a merchant's request says of the key that made it. */
export const actingKeyData = (key: ActingKey) => (key ? { apiKey: { id: key.id, name: key.name } } : {});

export type AuditInput = {
  orderId: string;
  type: AuditKind;
  actor: AuditActor;
  data?: Record<string, unknown>;
};

/**
 * The one way an order's timeline grows: an INSERT of the entries `entries` selects (columns
 * order_id, type, actor, data, at), for a statement of the caller's or for recordAudit.
 */
export const appendAuditSql = (entries: string) =>
  `INSERT INTO audit_entries (order_id, type, actor, data, created_at)
   SELECT order_id, type, actor, data, at FROM (${entries}) AS entry`;

const APPEND_ONE = appendAuditSql(
  `SELECT CAST($orderId AS bigint) AS order_id, CAST($type AS text) AS type, CAST($actor AS text) AS actor,
          CAST($data AS jsonb) AS data, CAST($at AS timestamptz) AS at`,
);

/** Appends to an order's timeline, inside the caller's transaction so it commits with the change. */
export async function recordAudit(
  db: Pick<Database, 'sequelize'>,
  transaction: Transaction,
  entry: AuditInput,
  at: Date,
) {
  await db.sequelize.query(APPEND_ONE, {
    bind: { ...entry, data: JSON.stringify(entry.data ?? {}), at },
    transaction,
  });
}
