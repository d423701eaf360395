import { verifyDueClaims } from './verify-due-claims';
import { networkBatchJob } from '../jobs/job';

// One lane per network, as the scanner's: claims on a network that cannot be reached wait alone.
export const verifyPaymentsJob = networkBatchJob(
  'verify-payments',
  (config) => config.JOB_VERIFY_PAYMENTS_CRON,
  verifyDueClaims,
);
