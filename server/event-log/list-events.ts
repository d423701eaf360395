import { QueryTypes } from 'sequelize';
import type { ListEventsQuery, WebhookEventBody } from '../../contract';
import { checkEventScope, shownEventTypes, type Credential } from '../auth/check-scope';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { decodeEventCursor, encodeEventCursor, positionAtSql, type EventCursor } from './event-cursor';

export const DEFAULT_PER_PAGE = 20;

type EventRow = { id: string; body: string; at: string };

/**
 * Where an event sits in the merchant's keyset order; a 400 when it names no event of the merchant.
 * Any of its events, also one of a type the API key is not shown: a receiver catches up from the
 * last event its webhook got, whatever its type, and a position shows nothing of the event.
 */
async function positionOf(deps: Pick<Deps, 'db'>, merchantId: string, id: string) {
  const [row] = await deps.db.sequelize.query<{ at: string }>(
    `SELECT ${positionAtSql('created_at')} AS at FROM events WHERE id = $id AND merchant_id = $merchantId`,
    { type: QueryTypes.SELECT, bind: { id, merchantId } },
  );
  if (!row)
    throw ApiError.field(
      'query.ending_before',
      'names no event of this merchant (unknown, or deleted after the retention period)',
    );
  return { at: row.at, id };
}

/**
 * The merchant's events, each the stored body its webhook carries, in pages that are a keyset walk
 * on (created_at, id): newest first from the top or from a cursor, or, after `ending_before`, the
 * events right after that one (walked oldest first, each page still listed newest first). Every
 * page is one index range (migration 0013), whatever its depth. An API key is shown only the types
 * of its scopes (shownEventTypes): the query leaves the others out, so every page and cursor counts
 * only what it shows; asking for a type it is not shown is a 403.
 */
export async function listEvents(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: ListEventsQuery,
  apiKey: Credential,
) {
  if (query.type !== undefined) {
    const refused = checkEventScope(apiKey, query.type);
    if (refused) throw refused;
  }
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  let from: EventCursor | null = query.cursor ? decodeEventCursor(query.cursor) : null;
  if (query.ending_before !== undefined) {
    if (from) throw ApiError.field('query.ending_before', 'cannot be combined with a cursor');
    from = { toward: 'newer', ...(await positionOf(deps, merchantId, query.ending_before)) };
  }
  const toward = from?.toward ?? 'older';

  const bind: Record<string, unknown> = { merchantId, limit: perPage + 1 };
  const where = ['merchant_id = $merchantId'];
  // A type asked for was checked above; without one, only the types the key is shown.
  const shown = query.type === undefined ? shownEventTypes(apiKey) : null;
  if (query.type !== undefined) {
    where.push('type = $type');
    bind.type = query.type;
  } else if (shown) {
    where.push('type = ANY(CAST($shown AS text[]))');
    bind.shown = shown;
  }
  if (query.order !== undefined) {
    where.push(
      'order_id = (SELECT o.id FROM orders o WHERE o.reference = $order AND o.merchant_id = $merchantId)',
    );
    bind.order = query.order;
  }
  if (query.created_gte !== undefined) {
    where.push('created_at >= CAST($createdGte AS timestamptz)');
    bind.createdGte = query.created_gte;
  }
  if (query.created_lt !== undefined) {
    where.push('created_at < CAST($createdLt AS timestamptz)');
    bind.createdLt = query.created_lt;
  }
  if (from) {
    where.push(
      `(created_at, id) ${toward === 'older' ? '<' : '>'} (CAST($at AS timestamptz), CAST($id AS text))`,
    );
    bind.at = from.at;
    bind.id = from.id;
  }
  const direction = toward === 'older' ? 'DESC' : 'ASC';
  const rows = await deps.db.sequelize.query<EventRow>(
    `SELECT id, body, ${positionAtSql('created_at')} AS at FROM events
      WHERE ${where.join(' AND ')}
      ORDER BY created_at ${direction}, id ${direction}
      LIMIT $limit`,
    { type: QueryTypes.SELECT, bind },
  );

  const page = rows.slice(0, perPage);
  const last = page[page.length - 1];
  return {
    items: (toward === 'older' ? page : page.reverse()).map(
      (row) => JSON.parse(row.body) as WebhookEventBody,
    ),
    per_page: perPage,
    nextCursor:
      rows.length > perPage && last ? encodeEventCursor({ toward, at: last.at, id: last.id }) : null,
  };
}
