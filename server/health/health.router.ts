import { initServer } from '@ts-rest/express';
import { healthContract } from '../../contract';
import type { Deps } from '../deps';
import { settlesWithin } from '../lib/settles-within';
import { readMetrics } from './read-metrics';

/**
 * Whether the database answers within READY_TIMEOUT_MS (a load balancer must not wait longer to
 * learn it), and this instance's change feed, which checks its own connection every second, has
 * not lost it: a partition is then known between probes, and an instance coming back from one
 * returns to rotation once the feed is connected again (its caches trusted again), not on the
 * first statement that happens to get through.
 */
const databaseAnswers = async (deps: Pick<Deps, 'db' | 'config'>) =>
  !deps.db.changes.lost &&
  (await settlesWithin(deps.db.sequelize.query('SELECT 1'), deps.config.READY_TIMEOUT_MS));

export function healthRouter(deps: Deps) {
  return initServer().router(healthContract, {
    healthz: async () => ({ status: 200, body: { status: 'ok' } }),
    readyz: async () =>
      (await databaseAnswers(deps))
        ? { status: 200, body: { status: 'ok', database: 'ok' } }
        : { status: 503, body: { status: 'unavailable', database: 'unreachable' } },
    metrics: async ({ req, headers }) => ({
      status: 200,
      body: await readMetrics(deps, {
        authorization: headers.authorization,
        peer: req.socket.remoteAddress,
        ip: req.ip,
        forwarded: ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((h) => req.headers[h] !== undefined),
      }),
    }),
  });
}
