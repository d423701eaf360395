import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one app instance (a registry of its own, so several apps in one process
 * never share counters). Routes are labelled by their contract path, never by the raw URL.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'stablepay_http_requests_total',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'stablepay_http_request_duration_seconds',
      help: 'HTTP request duration by method and route',
      labelNames: ['method', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    orderWriteBatch: new Histogram({
      name: 'stablepay_order_write_batch_size',
      help: 'Orders written by one creation statement (concurrent creations are written together)',
      buckets: [1, 2, 4, 8, 16, 32],
      registers: [registry],
    }),
    deliveryRecordBatch: new Histogram({
      name: 'stablepay_delivery_record_batch_size',
      help: 'Delivery attempts recorded by one statement (attempts finishing together are recorded together)',
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: 'stablepay_job_runs_total',
      help: 'Background job runs by job and outcome',
      labelNames: ['job', 'outcome'] as const,
      registers: [registry],
    }),
    jobItems: new Counter({
      name: 'stablepay_job_items_total',
      help: 'Items handled by background jobs',
      labelNames: ['job'] as const,
      registers: [registry],
    }),
    backlog: new Gauge({
      name: 'stablepay_backlog',
      help: 'Work waiting in the database: pending deliveries and unverified payment claims',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    // Both mirror the RPC endpoint pools' own state, refreshed at scrape time (see read-metrics.ts).
    rpcEndpointUp: new Gauge({
      name: 'stablepay_rpc_endpoint_up',
      help: 'Whether the last request to an RPC endpoint succeeded (1) or failed (0); endpoint is "#<position> <origin>"',
      labelNames: ['network', 'endpoint'] as const,
      registers: [registry],
    }),
    rpcEndpointFailures: new Counter({
      name: 'stablepay_rpc_endpoint_failures_total',
      help: 'Failed attempts at an RPC endpoint by reason: timeout, connection, http_429, http_5xx',
      labelNames: ['network', 'endpoint', 'reason'] as const,
      registers: [registry],
    }),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
