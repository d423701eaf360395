import type { Job } from '../jobs/job';
import { billDueSubscriptions } from './bill-due-subscriptions';

export const billSubscriptionsJob: Job = {
  name: 'bill-subscriptions',
  schedule: (config) => config.JOB_BILL_SUBSCRIPTIONS_CRON,
  run: async (deps, { signal, workerId }) => {
    // While a batch is full there may be more due: keep going (10,000 due in one minute).
    let total = 0;
    for (;;) {
      const billed = await billDueSubscriptions(deps, {
        batchSize: deps.config.JOB_BATCH_SIZE * 4,
        workerId,
      });
      total += billed;
      if (billed < deps.config.JOB_BATCH_SIZE * 4 || signal?.aborted) return total;
    }
  },
};
