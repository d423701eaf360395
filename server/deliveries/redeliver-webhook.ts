import type { EventType } from '../../contract';
import { checkEventScope, type Credential } from '../auth/check-scope';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import type { Caller } from '../events/actor';
import { sendNow } from '../events/send-now';
import { findOrder } from '../orders/find-order';
import { presentWebhookDelivery } from './present-delivery';

/**
 * Sends the event behind a recorded attempt again, now, and returns the new attempt's record (with
 * the event's body): a 403 for an event the API key is not shown (a subscription's without
 * subscriptions:read), before anything is sent.
 */
export async function redeliverWebhook(
  deps: Deps,
  input: {
    merchantId: string;
    reference: string;
    deliveryId: string;
    apiKey: Credential;
    /** Who asks: the attempt's audit entry names them. */
    caller: Caller;
  },
) {
  const { models } = deps.db;
  const order = await findOrder(models, { reference: input.reference, merchantId: input.merchantId });
  const previous = await models.WebhookDelivery.findOne({
    where: { id: input.deliveryId, orderId: order.id },
  });
  if (!previous?.deliveryId) throw ApiError.notFound('Webhook delivery');
  const refused = checkEventScope(input.apiKey, previous.eventType as EventType);
  if (refused) throw refused;
  const sent = await sendNow(deps, previous.deliveryId, { manual: true, by: input.caller });
  if (!sent) throw ApiError.notFound('Webhook delivery');
  if ('held' in sent) throw ApiError.conflict(`Cannot send yet: ${sent.held}`);
  return presentWebhookDelivery(
    await models.WebhookDelivery.findByPk(sent.recorded.recordId, { rejectOnEmpty: true }),
  );
}
