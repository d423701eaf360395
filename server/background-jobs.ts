import { refreshDashboardStatsJob } from './dashboard/refresh-stats.job';
import { pruneEventsJob } from './event-log/prune-events.job';
import { sendEmailsJob } from './emails/send-emails.job';
import { deliverEventsJob } from './events/deliver-events.job';
import type { Job } from './jobs/job';
import { expireOrdersJob } from './orders/expire-orders.job';
import { scanPaymentsJob } from './payments/scan-payments.job';
import { verifyPaymentsJob } from './payments/verify-payments.job';
import { verifyPayoutsJob } from './payouts/verify-payouts.job';
import { verifyRefundsJob } from './refunds/verify-refunds.job';
import { billSubscriptionsJob } from './subscriptions/bill-subscriptions.job';
import { followUpX402Job } from './x402/follow-up-x402.job';

/** Every background job; each is defined beside the work it does, the scheduler only runs them. */
export const BACKGROUND_JOBS: Job[] = [
  deliverEventsJob,
  expireOrdersJob,
  verifyPaymentsJob,
  scanPaymentsJob,
  verifyRefundsJob,
  verifyPayoutsJob,
  pruneEventsJob,
  refreshDashboardStatsJob,
  billSubscriptionsJob,
  sendEmailsJob,
  followUpX402Job,
];
