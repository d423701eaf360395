import { initServer } from '@ts-rest/express';
import { healthContract } from '../../contract';
import type { Deps } from '../deps';
import { readMetrics } from './read-metrics';

export function healthRouter(deps: Deps) {
  return initServer().router(healthContract, {
    healthz: async () => ({ status: 200, body: { status: 'ok' } }),
    readyz: async () => {
      try {
        await deps.db.sequelize.query('SELECT 1');
        return { status: 200, body: { status: 'ok', database: 'ok' } };
      } catch {
        return { status: 503, body: { status: 'unavailable', database: 'unreachable' } };
      }
    },
    metrics: async ({ headers }) => ({ status: 200, body: await readMetrics(deps, headers.authorization) }),
  });
}
