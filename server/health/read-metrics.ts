import { QueryTypes } from 'sequelize';
import type { ChainRegistry } from '../chains/registry';
import { RPC_FAILURE_REASONS, type EndpointHealth } from '../chains/rpc-endpoints';
import type { Deps } from '../deps';
import type { Metrics } from '../lib/metrics';
import { checkMetricsAccess, type MetricsClient } from './check-metrics-access';

/**
 * The metrics text, for a client that may read it (check-metrics-access.ts), after refreshing the
 * backlog gauges from the database (cheap: partial indexes) and the RPC endpoint metrics from the
 * chains' endpoint pools.
 */
export async function readMetrics(
  deps: Pick<Deps, 'db' | 'metrics' | 'config' | 'chains'>,
  client: MetricsClient,
) {
  checkMetricsAccess(deps.config, client);
  const [row] = await deps.db.sequelize.query<{ deliveries: number; claims: number }>(
    `SELECT (SELECT count(*) FROM event_deliveries WHERE status = 'PENDING')::int AS deliveries,
            (SELECT count(*) FROM payment_claims WHERE status = 'PENDING')::int AS claims`,
    { type: QueryTypes.SELECT },
  );
  deps.metrics.backlog.set({ kind: 'pending_deliveries' }, row?.deliveries ?? 0);
  deps.metrics.backlog.set({ kind: 'unverified_claims' }, row?.claims ?? 0);
  // Optional until every ChainRegistry has it.
  const chains: ChainRegistry & { endpointHealth?: () => readonly EndpointHealth[] } = deps.chains;
  refreshRpcEndpointMetrics(deps.metrics, chains.endpointHealth?.() ?? []);
  return deps.metrics.registry.metrics();
}

/**
 * Sets the RPC endpoint metrics to the pools' own state. The failure counter mirrors the pools'
 * counts, which only grow for the life of the process, so it stays a true Prometheus counter
 * (a restart resets it, as for any counter). Synchronous, so concurrent scrapes cannot interleave.
 */
export function refreshRpcEndpointMetrics(
  metrics: Pick<Metrics, 'rpcEndpointUp' | 'rpcEndpointFailures'>,
  endpoints: readonly EndpointHealth[],
) {
  metrics.rpcEndpointUp.reset();
  metrics.rpcEndpointFailures.reset();
  for (const e of endpoints) {
    const labels = { network: e.network, endpoint: e.endpoint };
    metrics.rpcEndpointUp.set(labels, e.up ? 1 : 0);
    for (const reason of RPC_FAILURE_REASONS)
      metrics.rpcEndpointFailures.inc({ ...labels, reason }, e.failuresByReason[reason]);
  }
}
