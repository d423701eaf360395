import type { Job } from '../jobs/job';
import { expireClaims } from './expire-claims';
import { followUpSettlements } from './follow-up-settlements';

/**
 * x402 settlements a crash or a late receipt left behind, on any instance: idle claims first
 * (expireClaims: one used on chain becomes a sent one), then sent and pending ones
 * (followUpSettlements).
 */
export const followUpX402Job: Job = {
  name: 'follow-up-x402',
  schedule: (config) => config.JOB_FOLLOW_UP_X402_CRON,
  run: async (deps) => (await expireClaims(deps)) + (await followUpSettlements(deps)),
};
