import { Op, type WhereOptions } from 'sequelize';
import type { Subscription as SubscriptionBody, SubscriptionStatus } from '../../contract';
import type { Deps } from '../deps';
import { afterNewestFirstCursor, encodeNewestFirstCursor } from '../http/newest-first-cursor';
import { presentSubscription } from './present-subscription';

const DEFAULT_PER_PAGE = 20;

/** The merchant's subscriptions, newest first, a cursor page at a time (the same cost at any depth). */
export async function listSubscriptions(
  deps: Pick<Deps, 'db' | 'config' | 'secrets'>,
  merchantId: string,
  query: { per_page?: number; cursor?: string; status?: SubscriptionStatus; customer_email?: string },
): Promise<{ items: SubscriptionBody[]; per_page: number; nextCursor: string | null }> {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const after = afterNewestFirstCursor(query.cursor);
  const where: WhereOptions[] = [{ merchantId }];
  if (query.status) where.push({ status: query.status });
  if (query.customer_email)
    where.push(
      deps.db.sequelize.where(
        deps.db.sequelize.fn('lower', deps.db.sequelize.col('customer_email')),
        query.customer_email.toLowerCase(),
      ),
    );
  if (after) where.push(after);
  const rows = await deps.db.models.Subscription.findAll({
    where: { [Op.and]: where },
    order: [
      ['createdAt', 'DESC'],
      ['id', 'DESC'],
    ],
    limit: perPage + 1,
  });
  const page = rows.slice(0, perPage);
  const last = page[page.length - 1];
  return {
    items: page.map((s) => presentSubscription(deps, s)),
    per_page: perPage,
    nextCursor: rows.length > perPage && last ? encodeNewestFirstCursor(last) : null,
  };
}
