/** Every background job, by the name JOBS uses to pick what an instance runs. */
export const JOB_NAMES = [
  'deliver-events',
  'expire-orders',
  'verify-payments',
  'scan-payments',
  'verify-refunds',
  'verify-payouts',
  'prune-events',
  'refresh-dashboard-stats',
  'bill-subscriptions',
  'send-emails',
  'follow-up-x402',
] as const;
export type JobName = (typeof JOB_NAMES)[number];
