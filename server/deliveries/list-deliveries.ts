import { Op, QueryTypes, type OrderItem, type WhereOptions } from 'sequelize';
import { RECENT_DELIVERIES } from '../../contract';
import { shownEventTypes, type Credential as ApiKey } from '../auth/check-scope';
import type { WebhookDelivery } from '../db/models';
import type { Deps } from '../deps';
import { presentMessengerDelivery, presentWebhookDelivery } from './present-delivery';
import { BY_ID, rowsOfOrder } from './rows-of-order';

/** The deliveries of the events an API key is shown (shownEventTypes): all of them for the login token. */
const shownTypesWhere = (apiKey: ApiKey) => {
  const shown = shownEventTypes(apiKey);
  return shown ? { eventType: { [Op.in]: shown } } : {};
};

/** A per-order delivery list: the order's deliveries of the events the API key is shown, oldest first. */
type ShownDeliveries<Item> = (
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  reference: string,
  apiKey: ApiKey,
) => Promise<{ items: Item[] }>;

function shownDeliveries<Row, Item>(
  find: (db: Deps['db'], query: { where: WhereOptions; order: OrderItem[]; limit: number }) => Promise<Row[]>,
  present: (row: Row) => Item,
): ShownDeliveries<Item> {
  return async (deps, merchantId, reference, apiKey) => {
    const rows = await rowsOfOrder(deps, merchantId, reference, (orderId, limit) =>
      find(deps.db, { where: { orderId, ...shownTypesWhere(apiKey) }, order: BY_ID, limit }),
    );
    return { items: rows.map(present) };
  };
}

/**
 * Webhook attempts of the merchant's order, oldest first (the first MAX_ORDER_LIST_ITEMS, like every
 * per-order list), of the events the API key is shown: a subscription order's subscription events
 * only with subscriptions:read.
 */
export const listWebhookDeliveries = shownDeliveries(
  (db, query) => db.models.WebhookDelivery.findAll(query),
  presentWebhookDelivery,
);

/** Messenger sends of the merchant's order, oldest first, of the events the API key is shown. */
export const listMessengerDeliveries = shownDeliveries(
  (db, query) => db.models.MessengerDelivery.findAll(query),
  presentMessengerDelivery,
);

/** The order's timeline, oldest first. */
export async function listAudit(deps: Pick<Deps, 'db'>, merchantId: string, reference: string) {
  const rows = await rowsOfOrder(deps, merchantId, reference, (orderId, limit) =>
    deps.db.models.AuditEntry.findAll({ where: { orderId }, order: BY_ID, limit }),
  );
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

const RECENT_EVENT_WINDOW = 1000;

/**
 * The merchant's latest webhook attempts across its orders (and test pings), newest first. The
 * merchant's newest events are found by their index and their attempts joined to them: an attempt
 * of an event older than the newest RECENT_EVENT_WINDOW is not among the latest in practice. Only
 * the events the API key is shown count, in the window too.
 */
export async function listRecentWebhookDeliveries(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  apiKey: ApiKey,
) {
  const shown = shownEventTypes(apiKey);
  const rows = await deps.db.sequelize.query<WebhookDelivery & { orderReference: string | null }>(
    `SELECT wd.id, wd.event_id AS "eventId", wd.event_type AS "eventType", wd.url, wd.attempt,
            wd.request_body AS "requestBody", wd.response_status AS "responseStatus",
            wd.response_body AS "responseBody", wd.error, wd.duration_ms AS "durationMs",
            wd.created_at AS "createdAt", wd.next_retry_at AS "nextRetryAt", o.reference AS "orderReference"
       FROM (SELECT id FROM events WHERE merchant_id = $merchantId
                ${shown ? 'AND type = ANY(CAST($shown AS text[]))' : ''}
              ORDER BY created_at DESC, id DESC LIMIT ${RECENT_EVENT_WINDOW}) e
       JOIN webhook_deliveries wd ON wd.event_id = e.id
       LEFT JOIN orders o ON o.id = wd.order_id
      ORDER BY wd.id DESC
      LIMIT ${RECENT_DELIVERIES}`,
    { bind: { merchantId, ...(shown ? { shown } : {}) }, type: QueryTypes.SELECT },
  );
  return {
    items: rows.map((row) => ({ ...presentWebhookDelivery(row), orderReference: row.orderReference })),
  };
}
