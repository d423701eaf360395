import { verifyDueClaims } from './verify-due-claims';
import type { Job } from '../jobs/job';

export const verifyPaymentsJob: Job = {
  name: 'verify-payments',
  schedule: (config) => config.JOB_VERIFY_PAYMENTS_CRON,
  run: (deps, { workerId }) =>
    verifyDueClaims(deps, { batchSize: deps.config.JOB_BATCH_SIZE, owner: workerId }),
};
