import type { Deps } from '../deps';
import { presentMember } from './present-member';
import { OLDEST_FIRST } from '../db/order-by';

/** GET /members: the account's members still in it, oldest first. */
export async function listMembers(deps: Pick<Deps, 'db'>, merchantId: string) {
  const rows = await deps.db.models.Member.findAll({
    where: { merchantId, removedAt: null },
    order: OLDEST_FIRST,
    limit: 1000,
    raw: true,
  });
  return rows.map(presentMember);
}
