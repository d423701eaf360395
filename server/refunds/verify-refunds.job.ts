import { verifyRefunds } from './verify-refunds';
import { networkBatchJob } from '../jobs/job';

export const verifyRefundsJob = networkBatchJob(
  'verify-refunds',
  (config) => config.JOB_VERIFY_REFUNDS_CRON,
  verifyRefunds,
);
