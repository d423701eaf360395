import { Op, type WhereOptions } from 'sequelize';
import type { PayoutStatus, PayoutSummary } from '../../contract';
import type { Deps } from '../deps';
import { afterNewestFirstCursor, encodeNewestFirstCursor } from '../http/newest-first-cursor';
import { presentPayoutSummaries } from './present-payout';

const DEFAULT_PER_PAGE = 20;

/** The account's payouts, newest first, a cursor page at a time (without items). */
export async function listPayouts(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: { per_page?: number; cursor?: string; status?: PayoutStatus },
): Promise<{ items: PayoutSummary[]; per_page: number; nextCursor: string | null }> {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const after = afterNewestFirstCursor(query.cursor);
  const where: WhereOptions[] = [{ merchantId }];
  if (query.status) where.push({ status: query.status });
  if (after) where.push(after);
  const rows = await deps.db.models.Payout.findAll({
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
    items: await presentPayoutSummaries(deps, page),
    per_page: perPage,
    nextCursor: rows.length > perPage && last ? encodeNewestFirstCursor(last) : null,
  };
}
