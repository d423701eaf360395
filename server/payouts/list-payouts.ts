import type { WhereOptions } from 'sequelize';
import type { PayoutStatus, PayoutSummary } from '../../contract';
import type { Deps } from '../deps';
import { newestFirstPage } from '../http/newest-first-cursor';
import { presentPayoutSummaries } from './present-payout';

const DEFAULT_PER_PAGE = 20;

/** The account's payouts, newest first, a cursor page at a time (without items). */
export async function listPayouts(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: { per_page?: number; cursor?: string; status?: PayoutStatus },
): Promise<{ items: PayoutSummary[]; per_page: number; nextCursor: string | null }> {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const where: WhereOptions[] = [{ merchantId }];
  if (query.status) where.push({ status: query.status });
  const { page, nextCursor } = await newestFirstPage(deps.db.models.Payout, where, {
    cursor: query.cursor,
    perPage,
  });
  return { items: await presentPayoutSummaries(deps, page), per_page: perPage, nextCursor };
}
