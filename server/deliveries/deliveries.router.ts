import { initServer } from '@ts-rest/express';
import { deliveriesContract, emailsContract } from '../../contract';
import type { Deps } from '../deps';
import { callerOf, currentApiKey, currentMerchant } from '../http/current-merchant';
import {
  listAudit,
  listMessengerDeliveries,
  listRecentWebhookDeliveries,
  listWebhookDeliveries,
} from './list-deliveries';
import { listEmailDeliveries } from './list-email-deliveries';
import { redeliverWebhook } from './redeliver-webhook';

export function deliveriesRouter(deps: Deps) {
  const messenger = async ({
    req,
    params,
  }: {
    req: { user?: Express.User };
    params: { reference: string };
  }) => ({
    status: 200 as const,
    body: await listMessengerDeliveries(deps, currentMerchant(req).id, params.reference, currentApiKey(req)),
  });
  return initServer().router(deliveriesContract, {
    recentWebhookDeliveries: async ({ req }) => ({
      status: 200,
      body: await listRecentWebhookDeliveries(deps, currentMerchant(req).id, currentApiKey(req)),
    }),
    webhookDeliveries: async ({ req, params }) => ({
      status: 200,
      body: await listWebhookDeliveries(deps, currentMerchant(req).id, params.reference, currentApiKey(req)),
    }),
    redeliverWebhook: async ({ req, params }) => ({
      status: 200,
      body: await redeliverWebhook(deps, {
        merchantId: currentMerchant(req).id,
        reference: params.reference,
        deliveryId: params.id,
        apiKey: currentApiKey(req),
        caller: callerOf(req),
      }),
    }),
    messengerDeliveries: messenger,
    telegramDeliveries: messenger,
    audit: async ({ req, params }) => ({
      status: 200,
      body: await listAudit(deps, currentMerchant(req).id, params.reference),
    }),
  });
}

/** The e-mails to an order's customer: delivery records like the webhooks' (the outbox is server/emails/). */
export function emailDeliveriesRouter(deps: Deps) {
  return initServer().router(emailsContract, {
    emailDeliveries: async ({ req, params }) => ({
      status: 200,
      body: await listEmailDeliveries(deps, currentMerchant(req).id, params.reference),
    }),
  });
}
