import { initServer } from '@ts-rest/express';
import { networksContract } from '../../contract';
import type { Deps } from '../deps';
import { listNetworks } from './list-networks';

/** Changes only when the operator reconfigures (or a token is refused): caches may keep it a while. */
const NETWORKS_CACHE = 'public, max-age=300';

export function networksRouter(deps: Deps) {
  return initServer().router(networksContract, {
    list: async ({ res }) => {
      res.setHeader('Cache-Control', NETWORKS_CACHE);
      return { status: 200, body: { items: listNetworks(deps), sandbox: deps.config.sandbox } };
    },
  });
}
