import type { Job } from '../jobs/job';
import { followUpSettlements } from './follow-up-settlements';

/** x402 settlements a crash left without their order (followUpSettlements), on any instance. */
export const followUpX402Job: Job = {
  name: 'follow-up-x402',
  schedule: (config) => config.JOB_FOLLOW_UP_X402_CRON,
  run: (deps) => followUpSettlements(deps),
};
