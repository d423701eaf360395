import type { Deps } from '../deps';
import { findOrder } from '../orders/find-order';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Webhook attempts of the merchant's order, oldest first. */
export async function listWebhookDeliveries(deps: Pick<Deps, 'db'>, merchantId: string, reference: string) {
  const order = await findOrder(deps.db.models, { reference, merchantId });
  const rows = await deps.db.models.WebhookDelivery.findAll({
    where: { orderId: order.id },
    order: [['id', 'ASC']],
  });
  return {
    items: rows.map((d) => ({
      id: d.id,
      eventId: d.eventId,
      eventType: d.eventType as never,
      url: d.url,
      attempt: d.attempt,
      requestBody: d.requestBody,
      responseStatus: d.responseStatus,
      responseBody: d.responseBody,
      error: d.error,
      durationMs: d.durationMs,
      createdAt: d.createdAt.toISOString(),
      nextRetryAt: iso(d.nextRetryAt),
    })),
  };
}

/** Messenger sends of the merchant's order, oldest first. */
export async function listMessengerDeliveries(deps: Pick<Deps, 'db'>, merchantId: string, reference: string) {
  const order = await findOrder(deps.db.models, { reference, merchantId });
  const rows = await deps.db.models.MessengerDelivery.findAll({
    where: { orderId: order.id },
    order: [['id', 'ASC']],
  });
  return {
    items: rows.map((d) => ({
      id: d.id,
      eventType: d.eventType as never,
      chatId: d.chatId,
      text: d.text,
      status: d.status,
      responseStatus: d.responseStatus,
      responseBody: d.responseBody,
      error: d.error,
      attempt: d.attempt,
      createdAt: d.createdAt.toISOString(),
    })),
  };
}

/** The order's timeline, oldest first. */
export async function listAudit(deps: Pick<Deps, 'db'>, merchantId: string, reference: string) {
  const order = await findOrder(deps.db.models, { reference, merchantId });
  const rows = await deps.db.models.AuditEntry.findAll({
    where: { orderId: order.id },
    order: [['id', 'ASC']],
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
