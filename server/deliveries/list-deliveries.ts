import { MAX_ORDER_LIST_ITEMS } from '../../contract';
import type { Deps } from '../deps';
import { findOrder } from '../orders/find-order';
import { presentMessengerDelivery, presentWebhookDelivery } from './present-delivery';

/** Webhook attempts of the merchant's order, oldest first (the first MAX_ORDER_LIST_ITEMS, like every per-order list). */
export async function listWebhookDeliveries(deps: Pick<Deps, 'db'>, merchantId: string, reference: string) {
  const order = await findOrder(deps.db.models, { reference, merchantId });
  const rows = await deps.db.models.WebhookDelivery.findAll({
    where: { orderId: order.id },
    order: [['id', 'ASC']],
    limit: MAX_ORDER_LIST_ITEMS,
  });
  return { items: rows.map(presentWebhookDelivery) };
}

/** Messenger sends of the merchant's order, oldest first. */
export async function listMessengerDeliveries(deps: Pick<Deps, 'db'>, merchantId: string, reference: string) {
  const order = await findOrder(deps.db.models, { reference, merchantId });
  const rows = await deps.db.models.MessengerDelivery.findAll({
    where: { orderId: order.id },
    order: [['id', 'ASC']],
    limit: MAX_ORDER_LIST_ITEMS,
  });
  return { items: rows.map(presentMessengerDelivery) };
}

/** The order's timeline, oldest first. */
export async function listAudit(deps: Pick<Deps, 'db'>, merchantId: string, reference: string) {
  const order = await findOrder(deps.db.models, { reference, merchantId });
  const rows = await deps.db.models.AuditEntry.findAll({
    where: { orderId: order.id },
    order: [['id', 'ASC']],
    limit: MAX_ORDER_LIST_ITEMS,
  });
  return {
    items: rows.map((e) => ({
      id: e.id,
      type: e.type,
      actor: e.actor,
      data: e.data,
      createdAt: e.createdAt.toISOString(),
    })),
  };
}
