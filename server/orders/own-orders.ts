import type { Request } from 'express';
import { readsOnlyOwnOrders } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/**
 * A cashier reads (and acts on) only the orders it created (contract/permissions.ts): on every
 * route about one order (`/orders/{reference}/…`, the sandbox's `/sandbox/orders/{reference}/pay`
 * too), an order another made is a 404 to it, as another account's is. Only for such a member
 * does this cost a statement; for every other credential it is a comparison.
 */
export function ownOrdersOnly(deps: Pick<Deps, 'db'>) {
  return async (req: Request, routePath: string): Promise<void> => {
    const user = req.user;
    if (!user || !readsOnlyOwnOrders(user.member.role) || !routePath.includes('/orders/:reference')) return;
    const [rows] = await deps.db.sequelize.query(
      `SELECT 1 FROM orders WHERE reference = $reference AND merchant_id = $merchantId
          AND created_by->>'memberId' = $memberId`,
      {
        bind: {
          reference: String(req.params.reference),
          merchantId: user.merchant.id,
          memberId: user.member.id,
        },
      },
    );
    if (rows.length === 0) throw ApiError.notFound('Order');
  };
}

/** The member whose orders alone a list shows (a cashier), or null: every order of the account. */
export const onlyOrdersOf = (user: Express.User): string | null =>
  readsOnlyOwnOrders(user.member.role) ? user.member.id : null;
