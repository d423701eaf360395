import { initServer } from '@ts-rest/express';
import { subscriptionsContract } from '../../contract';
import type { Deps } from '../deps';
import { callerOf, currentMerchant, ownRow } from '../http/current-merchant';
import { created, creation } from '../http/created';
import { orderCursorPage } from '../orders/list-orders';
import { cancelSubscription } from './cancel-subscription';
import { createSubscription } from './create-subscription';
import { findSubscription } from './find-subscription';
import { listSubscriptions } from './list-subscriptions';
import { pauseSubscription } from './pause-subscription';
import { presentSubscription } from './present-subscription';
import { resumeSubscription } from './resume-subscription';

export function subscriptionsRouter(deps: Deps) {
  const answer = (subscription: Parameters<typeof presentSubscription>[1]) => ({
    status: 200 as const,
    body: presentSubscription(deps, subscription),
  });
  return initServer().router(subscriptionsContract, {
    create: async ({ req, res, body, headers }) =>
      created(res, await createSubscription(deps, creation(req, body, headers))),
    list: async ({ req, query }) => ({
      status: 200,
      body: await listSubscriptions(deps, currentMerchant(req).id, query),
    }),
    get: async ({ req, params }) => answer(await findSubscription(deps, ownRow(req, params.id))),
    orders: async ({ req, params, query }) => {
      const merchant = currentMerchant(req);
      const subscription = await findSubscription(deps, ownRow(req, params.id));
      return {
        status: 200,
        body: await orderCursorPage(
          deps,
          merchant,
          { merchantId: merchant.id, subscriptionId: subscription.id },
          { perPage: query.per_page, cursor: query.cursor },
        ),
      };
    },
    cancel: async ({ req, params, body }) =>
      answer(
        await cancelSubscription(deps, {
          ...ownRow(req, params.id),
          atPeriodEnd: body.atPeriodEnd ?? false,
          actor: callerOf(req),
        }),
      ),
    pause: async ({ req, params }) =>
      answer(await pauseSubscription(deps, { ...ownRow(req, params.id), by: callerOf(req) })),
    resume: async ({ req, params }) =>
      answer(await resumeSubscription(deps, { ...ownRow(req, params.id), by: callerOf(req) })),
  });
}
