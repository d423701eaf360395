import { timingSafeEqual } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/** The metrics text, after refreshing the backlog gauges from the database (cheap: partial indexes). */
export async function readMetrics(
  deps: Pick<Deps, 'db' | 'metrics' | 'config'>,
  authorization: string | undefined,
) {
  const expected = deps.config.METRICS_TOKEN;
  if (expected) {
    const given = Buffer.from(authorization?.replace(/^Bearer /i, '') ?? '');
    const want = Buffer.from(expected);
    if (given.length !== want.length || !timingSafeEqual(given, want))
      throw ApiError.unauthenticated('Metrics need Authorization: Bearer <METRICS_TOKEN>');
  }
  const [row] = await deps.db.sequelize.query<{ deliveries: number; claims: number }>(
    `SELECT (SELECT count(*) FROM event_deliveries WHERE status = 'PENDING')::int AS deliveries,
            (SELECT count(*) FROM payment_claims WHERE status = 'PENDING')::int AS claims`,
    { type: QueryTypes.SELECT },
  );
  deps.metrics.backlog.set({ kind: 'pending_deliveries' }, row?.deliveries ?? 0);
  deps.metrics.backlog.set({ kind: 'unverified_claims' }, row?.claims ?? 0);
  return deps.metrics.registry.metrics();
}
