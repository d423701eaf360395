import type { DeliveryChannel } from '../db/models/event-delivery';
import type { Deps } from '../deps';
import { failure, type Delivery, type Outcome, type Sendable } from './delivery';
import { sendMessengerMessage } from './send-messenger-message';
import { sendWebhook } from './send-webhook';

type SenderDeps = Pick<Deps, 'config' | 'secrets' | 'clock'>;

/** One sender per channel: a new channel (e-mail) is a file and a line here. */
const SENDERS: Record<DeliveryChannel, (deps: SenderDeps, sendable: Sendable) => Promise<Outcome>> = {
  webhook: sendWebhook,
  messenger: sendMessengerMessage,
};

/**
 * The one send: one attempt of one task on its channel, to the settings in force now, not when the
 * event was written (a merchant who corrects a wrong webhook URL or chat gets the pending and
 * redelivered events there). Never throws: every failure is an outcome to record. The loop, test
 * deliveries and redeliveries all send through it.
 */
export async function sendDelivery(
  deps: SenderDeps,
  { task, event, merchant, order }: Delivery,
): Promise<Outcome> {
  if (!event || !merchant || (event.orderId !== null && !order))
    return failure('event, order or merchant missing', '', true);
  return SENDERS[task.channel](deps, { event, merchant, order, attempt: task.attempts + 1 }).catch(
    (error: unknown) => failure(error instanceof Error ? error.message : String(error), ''),
  );
}
