import { QueryTypes } from 'sequelize';
import type { WebhookEventBody } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/** One of the merchant's events, its stored body (what its webhook carries); 404 for any other. */
export async function getEvent(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  id: string,
): Promise<WebhookEventBody> {
  const [row] = await deps.db.sequelize.query<{ body: string }>(
    'SELECT body FROM events WHERE id = $id AND merchant_id = $merchantId',
    { type: QueryTypes.SELECT, bind: { id, merchantId } },
  );
  if (!row) throw ApiError.notFound('Event');
  return JSON.parse(row.body) as WebhookEventBody;
}
