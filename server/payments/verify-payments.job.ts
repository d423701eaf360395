import { verifyDueClaims } from './verify-due-claims';
import type { Job } from '../jobs/job';

export const verifyPaymentsJob: Job = {
  name: 'verify-payments',
  schedule: (config) => config.JOB_VERIFY_PAYMENTS_CRON,
  // One lane per network, as the scanner's: claims on a network that cannot be reached wait alone.
  lanes: (deps) => deps.chains.all().map((chain) => chain.network),
  run: (deps, { workerId, lane }) =>
    verifyDueClaims(deps, { batchSize: deps.config.JOB_BATCH_SIZE, owner: workerId, network: lane }),
};
