import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { attemptDelivery, recordAttempt } from '../events/deliver-events';
import { findOrder } from '../orders/find-order';
import { presentWebhookDelivery } from './present-delivery';

/** Sends the event behind a recorded attempt again, now, and returns the new attempt's record. */
export async function redeliverWebhook(
  deps: Deps,
  input: { merchantId: string; reference: string; deliveryId: string },
) {
  const { models } = deps.db;
  const order = await findOrder(models, { reference: input.reference, merchantId: input.merchantId });
  const previous = await models.WebhookDelivery.findOne({
    where: { id: input.deliveryId, orderId: order.id },
  });
  const task = previous?.deliveryId ? await models.EventDelivery.findByPk(previous.deliveryId) : null;
  if (!previous || !task) throw ApiError.notFound('Webhook delivery');
  const outcome = await attemptDelivery(deps, task, task.attempts + 1);
  if (outcome.deferred) throw ApiError.conflict(`Cannot send yet: ${outcome.error}`);
  const record = await recordAttempt(deps, task.id, outcome, { manual: true });
  if (!record || !('url' in record)) throw ApiError.notFound('Webhook delivery');
  return presentWebhookDelivery(record);
}
