import { verifyRefunds } from './verify-refunds';
import type { Job } from '../jobs/job';

export const verifyRefundsJob: Job = {
  name: 'verify-refunds',
  schedule: (config) => config.JOB_VERIFY_REFUNDS_CRON,
  run: (deps, { workerId }) =>
    verifyRefunds(deps, { batchSize: deps.config.JOB_BATCH_SIZE, owner: workerId }),
};
