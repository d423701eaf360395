import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errors, publicRoute } from './common';

const c = initContract();

/** The Prometheus text, generously bounded (its series are per contract route, status and endpoint). */
export const METRICS_TEXT_MAX = 4 * 1024 * 1024;

/** /metrics is never rate-limited (nor /healthz, /readyz): its errors, without the 429. */
const { 429: _neverLimited, ...metricsErrors } = errors('UNAUTHENTICATED');

export const healthContract = c.router({
  healthz: {
    method: 'GET',
    path: '/healthz',
    summary: 'The process is alive',
    description: 'Liveness: answers 200 while the process runs, without touching the database.',
    metadata: publicRoute,
    responses: { 200: z.object({ status: z.literal('ok') }) },
  },
  readyz: {
    method: 'GET',
    path: '/readyz',
    summary: 'The database is reachable',
    description: 'Readiness: 200 when the database answers, else 503 (take the instance out of rotation).',
    metadata: publicRoute,
    responses: {
      200: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
      503: z.object({ status: z.literal('unavailable'), database: z.literal('unreachable') }),
    },
  },
  metrics: {
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus metrics (loopback clients, or bearer METRICS_TOKEN)',
    description:
      'Prometheus text format: requests by contract route and status, database backlog, RPC endpoint health, process metrics. ' +
      'Without METRICS_TOKEN only clients on the same machine, not through a proxy, are answered; with it, send it as a bearer token (from anywhere). 401 otherwise.',
    metadata: publicRoute,
    responses: {
      200: c.otherResponse({
        contentType: 'text/plain; version=0.0.4',
        body: z.string().max(METRICS_TEXT_MAX),
      }),
      ...metricsErrors,
    },
  },
});
