import { verifyRefunds } from './verify-refunds';
import type { Job } from '../jobs/job';

export const verifyRefundsJob: Job = {
  name: 'verify-refunds',
  schedule: (config) => config.JOB_VERIFY_REFUNDS_CRON,
  lanes: (deps) => deps.chains.all().map((chain) => chain.network),
  run: (deps, { workerId, lane }) =>
    verifyRefunds(deps, { batchSize: deps.config.JOB_BATCH_SIZE, owner: workerId, network: lane }),
};
