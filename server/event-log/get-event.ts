import { QueryTypes } from 'sequelize';
import type { EventType, WebhookEventBody } from '../../contract';
import { checkEventScope, type Credential } from '../auth/check-scope';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/**
 * One of the merchant's events, its stored body (what its webhook carries); 404 for any other, 403
 * for one of a type the API key is not shown (a subscription's without subscriptions:read).
 */
export async function getEvent(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  id: string,
  apiKey: Credential,
): Promise<WebhookEventBody> {
  const [row] = await deps.db.sequelize.query<{ type: EventType; body: string }>(
    'SELECT type, body FROM events WHERE id = $id AND merchant_id = $merchantId',
    { type: QueryTypes.SELECT, bind: { id, merchantId } },
  );
  if (!row) throw ApiError.notFound('Event');
  const refused = checkEventScope(apiKey, row.type);
  if (refused) throw refused;
  return JSON.parse(row.body) as WebhookEventBody;
}
