import type { Order as OrderBody } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { eventActorFields, type Caller } from '../events/actor';
import { eventApiVersion, eventBody, newEventId } from '../events/append-events';
import type { CreatedOrder, NewOrderRow } from './created-order';
import { deliveryTargets } from '../events/delivery-targets';
import { ORDER_CREATED } from './order-lifecycle';
import { presentOrder } from './present-order';

/**
 * A new order row with what is written with it, whoever makes it (the API, a subscription's period,
 * an x402 payment): its first audit entry, its order.created event presenting the row as written
 * (every API version knows order.created; the version is the cached merchant row's, no query), the
 * delivery tasks and the member whose token must still hold. `presented` is the order's answer.
 */
export function createdOrderOf(
  deps: Pick<Deps, 'config' | 'chains'>,
  p: {
    order: NewOrderRow;
    merchant: MerchantRow;
    by: Caller | null;
    audit: Record<string, unknown>;
    at: Date;
  },
): { created: CreatedOrder; presented: OrderBody } {
  // A new order has received nothing: nothing to refund.
  const presented = presentOrder(deps, p.order, p.merchant.fullName, 0n);
  const eventId = newEventId();
  const body = { order: presented, ...eventActorFields(p.by ?? undefined) };
  const created: CreatedOrder = {
    order: p.order,
    actor: p.by ?? 'system',
    audit: p.audit,
    event: {
      id: eventId,
      body: eventBody(eventId, ORDER_CREATED.event, p.at, body, eventApiVersion(p.merchant)),
    },
    targets: deliveryTargets(p.order, p.merchant),
    actingMember: p.by && { id: p.by.member.id, tokenVersion: p.by.member.tokenVersion },
  };
  return { created, presented };
}
