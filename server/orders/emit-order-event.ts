import type { Transaction } from 'sequelize';
import type { EventType, Payment, Refund } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { appendEvent, eventBody, newEventId } from '../events/append-events';
import { deliveryTargets } from './delivery-targets';
import { presentOrder } from './present-order';

/** What an event carries beside the order: the transfer or refund that caused it. */
export type EventExtra = { payment?: Payment; refund?: Refund };

/**
 * Writes an order event (its body: the order as it is now, and `extra`) and its delivery tasks
 * inside the caller's transaction. Targets are fixed now (the order's own settings, else the
 * merchant's); the bot token is read at send time and never copied.
 */
export async function emitOrderEvent(
  deps: Pick<Deps, 'db' | 'config' | 'chains'>,
  transaction: Transaction,
  order: Order,
  type: EventType,
  at: Date,
  /** The order's merchant, when the caller already holds it (saves a read). */
  knownMerchant?: MerchantRow,
  extra: EventExtra = {},
): Promise<string> {
  const merchant =
    knownMerchant ?? (await deps.db.models.Merchant.findByPk(order.merchantId, { transaction }));
  if (!merchant) throw new Error(`order ${order.reference} has no merchant`);
  const id = newEventId();
  await appendEvent(deps.db, transaction, {
    id,
    orderId: order.id,
    merchantId: merchant.id,
    type,
    body: eventBody(id, type, at, { order: presentOrder(deps, order, merchant.fullName), ...extra }),
    at,
    targets: deliveryTargets(order, merchant),
  });
  return id;
}
