import { initServer } from '@ts-rest/express';
import { healthContract } from '../../contract';
import type { Deps } from '../deps';
import { readMetrics } from './read-metrics';

/** Whether the database answers within READY_TIMEOUT_MS: a load balancer must not wait longer to learn it. */
async function databaseAnswers(deps: Pick<Deps, 'db' | 'config'>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), deps.config.READY_TIMEOUT_MS);
  });
  const answered = deps.db.sequelize.query('SELECT 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRouter(deps: Deps) {
  return initServer().router(healthContract, {
    healthz: async () => ({ status: 200, body: { status: 'ok' } }),
    readyz: async () =>
      (await databaseAnswers(deps))
        ? { status: 200, body: { status: 'ok', database: 'ok' } }
        : { status: 503, body: { status: 'unavailable', database: 'unreachable' } },
    metrics: async ({ headers }) => ({ status: 200, body: await readMetrics(deps, headers.authorization) }),
  });
}
