import { Op, type WhereOptions } from 'sequelize';
import { z } from 'zod';
import type { Subscription as SubscriptionBody, SubscriptionStatus } from '../../contract';
import type { Subscription } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { presentSubscription } from './present-subscription';

const DEFAULT_PER_PAGE = 20;
const ZCursorBody = z.object({ v: z.literal(1), at: z.string().datetime(), id: z.string().max(40) });

const encode = (s: Pick<Subscription, 'createdAt' | 'id'>) =>
  Buffer.from(JSON.stringify({ v: 1, at: s.createdAt.toISOString(), id: s.id })).toString('base64url');

function decode(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  try {
    const parsed = ZCursorBody.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return { at: new Date(parsed.at), id: parsed.id };
  } catch {
    throw ApiError.field('query.cursor', 'is not a cursor returned by this API');
  }
}

/** The merchant's subscriptions, newest first, a cursor page at a time (the same cost at any depth). */
export async function listSubscriptions(
  deps: Pick<Deps, 'db' | 'config' | 'secrets'>,
  merchantId: string,
  query: { per_page?: number; cursor?: string; status?: SubscriptionStatus; customer_email?: string },
): Promise<{ items: SubscriptionBody[]; per_page: number; nextCursor: string | null }> {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const after = decode(query.cursor);
  const where: WhereOptions[] = [{ merchantId }];
  if (query.status) where.push({ status: query.status });
  if (query.customer_email)
    where.push(
      deps.db.sequelize.where(
        deps.db.sequelize.fn('lower', deps.db.sequelize.col('customer_email')),
        query.customer_email.toLowerCase(),
      ),
    );
  if (after)
    where.push({
      [Op.or]: [{ createdAt: { [Op.lt]: after.at } }, { createdAt: after.at, id: { [Op.lt]: after.id } }],
    });
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
    nextCursor: rows.length > perPage && last ? encode(last) : null,
  };
}
