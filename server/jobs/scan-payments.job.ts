import type { Job } from './job';

/**
 * The hook where on-chain payment scanning plugs in: each chain adapter that can scan gets one
 * bounded pass per run. Until an adapter implements scanning there is nothing to do.
 */
export const scanPaymentsJob: Job = {
  name: 'scan-payments',
  schedule: (config) => config.JOB_SCAN_PAYMENTS_CRON,
  run: async () => 0,
};
