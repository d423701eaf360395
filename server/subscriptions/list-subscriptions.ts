import type { WhereOptions } from 'sequelize';
import type { Subscription as SubscriptionBody, SubscriptionStatus } from '../../contract';
import type { Deps } from '../deps';
import { newestFirstPage } from '../http/newest-first-cursor';
import { presentSubscription } from './present-subscription';

const DEFAULT_PER_PAGE = 20;

/** The merchant's subscriptions, newest first, a cursor page at a time (the same cost at any depth). */
export async function listSubscriptions(
  deps: Pick<Deps, 'db' | 'config' | 'secrets'>,
  merchantId: string,
  query: { per_page?: number; cursor?: string; status?: SubscriptionStatus; customer_email?: string },
): Promise<{ items: SubscriptionBody[]; per_page: number; nextCursor: string | null }> {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const where: WhereOptions[] = [{ merchantId }];
  if (query.status) where.push({ status: query.status });
  if (query.customer_email)
    where.push(
      deps.db.sequelize.where(
        deps.db.sequelize.fn('lower', deps.db.sequelize.col('customer_email')),
        query.customer_email.toLowerCase(),
      ),
    );
  const { page, nextCursor } = await newestFirstPage(deps.db.models.Subscription, where, {
    cursor: query.cursor,
    perPage,
  });
  return { items: page.map((s) => presentSubscription(deps, s)), per_page: perPage, nextCursor };
}
