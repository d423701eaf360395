import type { Transaction } from 'sequelize';
import type { MerchantRow } from '../db/caches';
import type { Order, Refund } from '../db/models';
import type { Deps } from '../deps';
import type { Actor } from '../events/actor';
import { emitOrderEvent } from '../orders/emit-order-event';
import { presentRefund } from './present-refund';

export type RefundEventType = 'refund.created' | 'refund.succeeded' | 'refund.failed';

/**
 * A refund event through the order's outbox (webhook and messenger): `data.refund` beside
 * `data.order`. The refund is carried without its transaction, which would be stale by delivery.
 */
export function emitRefundEvent(
  deps: Pick<Deps, 'db' | 'config' | 'chains'>,
  transaction: Transaction,
  order: Order,
  refund: Refund,
  type: RefundEventType,
  at: Date,
  merchant?: MerchantRow,
  actor?: Actor,
) {
  return emitOrderEvent(
    deps,
    transaction,
    order,
    type,
    at,
    merchant,
    { refund: presentRefund(deps, refund, order) },
    actor,
  );
}
