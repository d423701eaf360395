import type { Transaction } from 'sequelize';
import type { OrderEventType, OrderStatus } from '../../contract';
import type { Order } from '../db/models';
import type { AuditActor } from '../db/models/audit-entry';
import type { Deps } from '../deps';
import { recordAudit } from '../events/audit';
import { emitOrderEvent, type EventExtra } from './emit-order-event';

const EVENT_FOR_STATUS: Partial<Record<OrderStatus, OrderEventType>> = {
  CONFIRMING: 'order.confirming',
  PAID: 'order.paid',
  UNDERPAID: 'order.underpaid',
  EXPIRED: 'order.expired',
};

/**
 * The one way an order's status changes: the row, its audit entry and its event are written in
 * the caller's transaction, so none exists without the others. The order must be locked by it.
 */
export async function changeOrderStatus(
  deps: Pick<Deps, 'db' | 'config' | 'chains' | 'clock'>,
  transaction: Transaction,
  order: Order,
  change: {
    to: OrderStatus;
    actor: AuditActor;
    reason: string;
    data?: Record<string, unknown>;
    /** Default: the status's own event; null: none (the caller sends its own). */
    event?: OrderEventType | null;
    /** Carried by the event beside the order (the payment that caused the change). */
    eventExtra?: EventExtra;
  },
) {
  const now = deps.clock();
  const from = order.status;
  order.status = change.to;
  order.updatedAt = now;
  await order.save({ transaction });
  await recordAudit(
    deps.db,
    transaction,
    {
      orderId: order.id,
      type: 'status.changed',
      actor: change.actor,
      data: { from, to: change.to, reason: change.reason, ...change.data },
    },
    now,
  );
  const event = change.event === undefined ? EVENT_FOR_STATUS[change.to] : change.event;
  if (event) await emitOrderEvent(deps, transaction, order, event, now, undefined, change.eventExtra);
}
