import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errors, publicRoute } from './common';

const c = initContract();

export const healthContract = c.router({
  healthz: {
    method: 'GET',
    path: '/healthz',
    summary: 'The process is alive',
    metadata: publicRoute,
    responses: { 200: z.object({ status: z.literal('ok') }) },
  },
  readyz: {
    method: 'GET',
    path: '/readyz',
    summary: 'The database is reachable',
    metadata: publicRoute,
    responses: {
      200: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
      503: z.object({ status: z.literal('unavailable'), database: z.literal('unreachable') }),
    },
  },
  metrics: {
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus metrics (bearer METRICS_TOKEN when one is configured)',
    metadata: publicRoute,
    responses: {
      200: c.otherResponse({ contentType: 'text/plain; version=0.0.4', body: z.string() }),
      ...errors('UNAUTHENTICATED'),
    },
  },
});
