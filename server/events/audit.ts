import type { Transaction } from 'sequelize';
import type { AuditKind } from '../../contract';
import type { Database } from '../db/database';
import { auditActor, type Actor } from './actor';

export type AuditInput = {
  orderId: string;
  type: AuditKind;
  actor: Actor;
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
  const by = auditActor(entry.actor);
  await db.sequelize.query(APPEND_ONE, {
    bind: { ...entry, actor: by.actor, data: JSON.stringify({ ...entry.data, ...by.fields }), at },
    transaction,
  });
}
