import { scanPayments } from './scan-payments';
import type { Job } from '../jobs/job';

/** Finds payments nobody reported, by reading each receiving address's new transactions. */
export const scanPaymentsJob: Job = {
  name: 'scan-payments',
  schedule: (config) => config.JOB_SCAN_PAYMENTS_CRON,
  // One lane per network: a network whose RPC hangs never holds up another's payments.
  lanes: (deps) => deps.chains.all().map((chain) => chain.network),
  run: (deps, { workerId, lane }) => scanPayments(deps, { owner: workerId, network: lane }),
};
