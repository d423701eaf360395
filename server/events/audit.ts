import type { Transaction } from 'sequelize';
import type { Models } from '../db/models';
import type { AuditActor } from '../db/models/audit-entry';

export type AuditInput = { orderId: string; type: string; actor: AuditActor; data?: Record<string, unknown> };

/** Appends to an order's timeline, inside the caller's transaction so it commits with the change. */
export async function recordAudit(models: Models, transaction: Transaction, entry: AuditInput, at: Date) {
  await models.AuditEntry.create(
    { orderId: entry.orderId, type: entry.type, actor: entry.actor, data: entry.data ?? {}, createdAt: at },
    { transaction },
  );
}
