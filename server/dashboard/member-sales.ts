import type { DateRangeQuery, MemberSales } from '../../contract';
import type { MemberRow } from '../db/caches';
import type { Deps } from '../deps';
import { salesByMember } from './sales-by-member';

/**
 * One member's sales in the range (GET /dashboard/sales/mine), counted on the server however many
 * there are: the figures of GET /dashboard/summary?by=member for that member, zero when it made none.
 */
export async function memberSales(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  member: Pick<MemberRow, 'id' | 'email' | 'name'>,
  range: DateRangeQuery,
): Promise<MemberSales> {
  const [sales] = await salesByMember(deps, merchantId, range, member.id);
  return (
    sales ?? {
      memberId: member.id,
      email: member.email,
      name: member.name,
      ordersCreated: 0,
      ordersPaid: 0,
      received: [],
      receivedFiat: [],
    }
  );
}
