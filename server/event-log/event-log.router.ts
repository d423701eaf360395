import { initServer } from '@ts-rest/express';
import { eventLogContract } from '../../contract';
import type { Deps } from '../deps';
import { currentMerchant } from '../http/current-merchant';
import { getEvent } from './get-event';
import { listEvents } from './list-events';

export function eventLogRouter(deps: Deps) {
  return initServer().router(eventLogContract, {
    list: async ({ req, query }) => ({
      status: 200,
      body: await listEvents(deps, currentMerchant(req).id, query),
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getEvent(deps, currentMerchant(req).id, params.id),
    }),
  });
}
