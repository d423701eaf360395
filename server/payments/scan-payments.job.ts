import { scanPayments } from './scan-payments';
import type { Job } from '../jobs/job';

/** Finds payments nobody reported, by reading each receiving address's new transactions. */
export const scanPaymentsJob: Job = {
  name: 'scan-payments',
  schedule: (config) => config.JOB_SCAN_PAYMENTS_CRON,
  run: (deps, { workerId }) => scanPayments(deps, { owner: workerId }),
};
