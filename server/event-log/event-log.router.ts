import { initServer } from '@ts-rest/express';
import { eventLogContract } from '../../contract';
import type { Deps } from '../deps';
import { currentApiKey, currentMerchant } from '../http/current-merchant';
import { getEvent } from './get-event';
import { listEvents } from './list-events';

export function eventLogRouter(deps: Deps) {
  return initServer().router(eventLogContract, {
    list: async ({ req, query }) => ({
      status: 200,
      body: await listEvents(deps, currentMerchant(req).id, query, currentApiKey(req)),
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getEvent(deps, currentMerchant(req).id, params.id, currentApiKey(req)),
    }),
  });
}
