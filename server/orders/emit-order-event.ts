import type { Transaction } from 'sequelize';
import type { ClaimedTransfer, OrderEventType, Payment, Refund, RefundEventType } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { eventActorFields, type Actor } from '../events/actor';
import { emitMerchantEvent } from '../events/emit-merchant-event';
import { presentOrder } from './present-order';
import { refundableUnitsOfOrder } from './refundable-amount';

/** What an event carries beside the order: the transfer, report or refund that caused it. */
export type EventExtra = { payment?: Payment; claim?: ClaimedTransfer; refund?: Refund };

/**
 * Writes an order event (its body: the order as it is now, and `extra`, at the merchant's API
 * version) and its delivery tasks inside the caller's transaction. Targets are fixed now (the
 * order's own settings, else the merchant's); the bot token is read at send time and never copied.
 * A type the merchant's version does not know is not written (null): merchants are sent only the
 * event types their version knows.
 */
export async function emitOrderEvent(
  deps: Pick<Deps, 'db' | 'config' | 'chains'>,
  transaction: Transaction,
  order: Order,
  type: OrderEventType | RefundEventType,
  at: Date,
  /** The order's merchant, when the caller already holds it (saves a read). */
  knownMerchant?: MerchantRow,
  extra: EventExtra = {},
  /** Who caused it: a person is named in `data` (actor, memberId or apiKeyId). */
  actor?: Actor,
): Promise<string | null> {
  const merchant =
    knownMerchant ?? (await deps.db.models.Merchant.findByPk(order.merchantId, { transaction }));
  if (!merchant) throw new Error(`order ${order.reference} has no merchant`);
  return emitMerchantEvent(deps, transaction, merchant, {
    type,
    at,
    orderId: order.id,
    settings: order,
    data: async () => {
      const refundable = await refundableUnitsOfOrder(deps.db, order, at, transaction);
      const presented = presentOrder(deps, order, merchant.fullName, refundable);
      return { order: presented, ...extra, ...eventActorFields(actor) };
    },
  });
}
